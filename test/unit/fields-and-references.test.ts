// SPEC 5 and decision 13 (one rule for e-mail addresses and free text), decision 20 (booking references as the site
// issues them) and issue 27 (the hour the clocks skip; the free waiting a fare includes, README settings).
import { describe, expect, it } from 'vitest';
import { create, validate, type Struct } from 'superstruct';
import type { Settings } from '../../src/domain/settings';
import { freeWaitingAirport, freeWaitingElsewhere, freeWaitingFor, freeWaitingRule, freeWaitingText } from '../../src/domain/freeWaiting';
// What the modules below import, loaded once here as the file loads, so that each test loads afresh only the module it
// checks (and the load-time code of these two stays out of the tests' coverage, where Stryker leaves it out).
import '../../src/domain/ukTime';
import '../../src/domain/messages';

// Each test loads its own copy of the module it checks (the query makes it a module of its own). Stryker counts the code
// a module runs as it loads (its schemas, patterns and messages) against the test that loaded it, and tries those
// mutants only on that test: another file that first loads these modules inside one of its tests used to be the only
// test tried on them. With a copy per test, every test below is tried on them.
let copies = 0;
// Unique to this load of the file: a mutation run loads the file again for each mutant in one worker, and a copy
// named as before would be the one already loaded, without the mutant.
const COPY = Math.random().toString(36).slice(2);
const fresh = <T>(path: string): Promise<T> => import(/* @vite-ignore */ `${path}?copy=${COPY}-${++copies}`);
const loadFields = () => fresh<typeof import('../../src/domain/fields')>('../../src/domain/fields.ts');
const loadReferences = () => fresh<typeof import('../../src/domain/bookingReference')>('../../src/domain/bookingReference.ts');
const loadClockChanges = () => fresh<typeof import('../../src/domain/clockChanges')>('../../src/domain/clockChanges.ts');

/** The message a schema refuses a value with, or null when it takes it. */
const refusal = (value: unknown, struct: Struct<any, any>) => validate(value, struct, { coerce: true })[0]?.message ?? null;

describe('the e-mail field of every form (SPEC 5, decision 13)', () => {
  it("asks for an address with SPEC 5's words when nothing is typed, and for a valid one otherwise", async () => {
    const { emailProblem } = await loadFields();
    expect([emailProblem(''), emailProblem('   '), emailProblem(null), emailProblem(undefined)]).toEqual(Array(4).fill('Email is required'));
    expect([emailProblem('amelia'), emailProblem('amelia@example'), emailProblem('a@b.co, c@d.co')]).toEqual(Array(3).fill('Please enter a valid email address'));
    expect(emailProblem(' amelia@example.com ')).toBeUndefined();
  });

  it('may be left empty where it is optional, but what is typed must still be one address', async () => {
    const { emailProblem } = await loadFields();
    expect([emailProblem('', false), emailProblem('  ', false)]).toEqual([undefined, undefined]);
    expect(emailProblem('amelia@', false)).toBe('Please enter a valid email address');
    expect(emailProblem('amelia@example.com', false)).toBeUndefined();
  });

  it('is one mailbox however it is typed: surrounding spaces and capitals do not make another address', async () => {
    const { emailKey } = await loadFields();
    expect(emailKey(' Amelia.Hart@Example.COM ')).toBe('amelia.hart@example.com');
    expect(emailKey('amelia.hart@example.com')).toBe(emailKey('AMELIA.HART@EXAMPLE.COM  '));
    expect([emailKey(''), emailKey(null), emailKey(undefined)]).toEqual(['', '', '']);
  });

  it('is counted as the mailbox it delivers to: a +tag left out, and Gmail\'s dots (issue 39)', async () => {
    const { mailboxKey } = await loadFields();
    expect(mailboxKey(' Victim+Promo-1@Example.COM ')).toBe('victim@example.com');
    expect(mailboxKey('victim+a+b@example.com')).toBe('victim@example.com');
    // Dots are another address elsewhere, the same one at Gmail, which googlemail.com also is.
    expect(mailboxKey('v.i.c.t.i.m@example.com')).toBe('v.i.c.t.i.m@example.com');
    expect(mailboxKey('V.i.c.t.i.m+x@gmail.com')).toBe('victim@gmail.com');
    expect(mailboxKey('v.ictim@googlemail.com')).toBe('victim@gmail.com');
    expect(mailboxKey('victim@mail.googlemail.com')).toBe('victim@mail.googlemail.com');
    // Only the local part loses its tag, and a tag that is all of it is kept; no @ at all is kept as it is.
    expect(mailboxKey('desk@plus+domain.example')).toBe('desk@plus+domain.example');
    expect(mailboxKey('+tag@example.com')).toBe('+tag@example.com');
    expect(mailboxKey('v+x@gmail.com')).toBe('v@gmail.com');
    expect([mailboxKey('@gmail.com'), mailboxKey(' Not An Address '), mailboxKey(null)]).toEqual(['@gmail.com', 'not an address', '']);
  });
});

describe('an e-mail address in an API body (decision 13)', () => {
  it('is trimmed, then taken when it is one address', async () => {
    const { Email, EmailOrEmpty } = await loadFields();
    expect(create('  ada@example.co.uk ', Email)).toBe('ada@example.co.uk');
    expect(create('\tada@example.co.uk\n', EmailOrEmpty)).toBe('ada@example.co.uk');
  });

  it('is refused, when it is not one address, with words that say what it must be', async () => {
    const { Email, EmailOrEmpty } = await loadFields();
    for (const bad of ['ada', 'ada@example', 'ada@example.com; eve@example.com', '<ada@example.com>']) {
      expect(refusal(bad, Email), bad).toBe('must be one e-mail address, like name@example.com');
      expect(refusal(bad, EmailOrEmpty), bad).toBe('must be one e-mail address, like name@example.com');
    }
    expect(refusal('', Email)).toBe('must be one e-mail address, like name@example.com');
    expect(refusal(42, Email)).not.toBeNull();
  });

  it('may be left empty where the field is optional: nothing, or only spaces, is kept as empty', async () => {
    const { EmailOrEmpty } = await loadFields();
    expect([create('', EmailOrEmpty), create('   ', EmailOrEmpty)]).toEqual(['', '']);
  });
});

describe('a date in an API body (SPEC 3: YYYY-MM-DD)', () => {
  it('is a real calendar date written as YYYY-MM-DD', async () => {
    const { CalendarDate } = await loadFields();
    for (const ok of ['2028-02-29', '2030-12-31', '2031-01-01']) expect(refusal(ok, CalendarDate), ok).toBeNull();
  });

  it('is refused when the day does not exist, saying what it received', async () => {
    const { CalendarDate } = await loadFields();
    expect(refusal('2027-02-29', CalendarDate)).toBe('Expected a real date as YYYY-MM-DD but received "2027-02-29"');
    expect(refusal('2030-13-01', CalendarDate)).toBe('Expected a real date as YYYY-MM-DD but received "2030-13-01"');
  });

  it('is refused in any other shape', async () => {
    const { CalendarDate } = await loadFields();
    for (const bad of ['2027-2-01', '2027-02-1', '27-02-01', 'x2027-02-01', '2027-02-01x', '01/02/2027', '', 20270201]) {
      expect(refusal(bad, CalendarDate), String(bad)).not.toBeNull();
    }
  });
});

describe('free text in an API body (decision 13)', () => {
  it('takes ordinary text, accents and symbols included, and line breaks where the text may have several lines', async () => {
    const { hasControlCharacters, Text, OptionalText } = await loadFields();
    expect(['Amelia Hart', 'Zoë Ó Briain £20 €', 'Flight BA117 (T5)'].map((t) => hasControlCharacters(t))).toEqual([false, false, false]);
    expect(refusal('Amelia Hart', Text(1, 80))).toBeNull();
    const notes = 'Two cases.\r\nOne child seat,\tplease.\nThank you';
    expect(hasControlCharacters(notes, true)).toBe(false);
    expect(refusal(notes, Text(0, 500, { multiline: true }))).toBeNull();
    expect(refusal(notes, OptionalText(500, { multiline: true }))).toBeNull();
  });

  it('refuses control characters, and line breaks in one-line text, saying so', async () => {
    const { hasControlCharacters, Text, OptionalText } = await loadFields();
    expect(hasControlCharacters('Amelia\u0000Hart')).toBe(true);
    expect(hasControlCharacters('Amelia\nHart')).toBe(true);
    expect(hasControlCharacters('Amelia\u202eHart', true)).toBe(true);
    expect(hasControlCharacters('Amelia\u0007Hart', true)).toBe(true);
    expect(refusal('Amelia\u0000Hart', Text(1, 80))).toBe('must not contain control characters');
    expect(refusal('Amelia\nHart', Text(1, 80))).toBe('must not contain control characters');
    expect(refusal('Amelia\nHart', OptionalText(80))).toBe('must not contain control characters');
    expect(refusal('Amelia\u001bHart', Text(0, 500, { multiline: true }))).toBe('must not contain control characters');
  });

  it('refuses a required field left blank, and text beyond its length', async () => {
    const { Text } = await loadFields();
    expect(refusal('   ', Text(1, 80))).toBe('must not be blank');
    expect(refusal('', Text(1, 80))).not.toBeNull();
    expect(refusal('x'.repeat(80), Text(1, 80))).toBeNull();
    expect(refusal('x'.repeat(81), Text(1, 80))).not.toBeNull();
  });

  it('may be left out where it is optional, and is then empty', async () => {
    const { OptionalText } = await loadFields();
    expect(create(undefined, OptionalText(80))).toBe('');
    expect(refusal('x'.repeat(81), OptionalText(80))).not.toBeNull();
  });
});

describe('booking references (decision 20)', () => {
  it('are written with capitals and digits a person can read over the phone: no 0 or O, no 1 or I', async () => {
    const { BOOKING_REFERENCE_ALPHABET } = await loadReferences();
    expect(BOOKING_REFERENCE_ALPHABET).toBe('ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
  });

  it('are read in any case and spacing, with or without the dash, and written as issued', async () => {
    const { normaliseBookingReference } = await loadReferences();
    for (const typed of ['BK-7Q2M9XKD', 'bk-7q2m9xkd', 'BK7Q2M9XKD', 'bk7q2m9xkd', ' bk 7q2m 9xkd ', 'BK - 7Q2M 9XKD']) {
      expect(normaliseBookingReference(typed), typed).toBe('BK-7Q2M9XKD');
    }
    expect(normaliseBookingReference('BK-ABCDEFGH')).toBe('BK-ABCDEFGH');
    expect(normaliseBookingReference('bk-23456789')).toBe('BK-23456789');
  });

  it('are BK and exactly 8 characters of those: nothing before, after, fewer or more', async () => {
    const { normaliseBookingReference } = await loadReferences();
    for (const bad of ['XBK-7Q2M9XKD', 'BK-7Q2M9XKD!', 'BK-7Q2M9XKDD', 'BK-7Q2M9XK', 'BK-7', 'BK-', '7Q2M9XKD', 'BK--7Q2M9XKD',
      'BK-7Q2M9XK0', 'BK-7Q2M9XKO', 'BK-7Q2M9XK1', 'BK-7Q2M9XKI', '', null, undefined, 12345678]) {
      expect(normaliseBookingReference(bad), String(bad)).toBeNull();
    }
  });

  it('may be left empty in a form, and are kept as issued', async () => {
    const { BookingReferenceOrEmpty } = await loadReferences();
    expect([create('', BookingReferenceOrEmpty), create('   ', BookingReferenceOrEmpty)]).toEqual(['', '']);
    expect(create(' bk 7q2m 9xkd', BookingReferenceOrEmpty)).toBe('BK-7Q2M9XKD');
    expect(create('BK-7Q2M9XKD', BookingReferenceOrEmpty)).toBe('BK-7Q2M9XKD');
  });

  it('are refused otherwise, a bare number included, with words a person can act on', async () => {
    const { BookingReferenceOrEmpty } = await loadReferences();
    const words = 'must be a booking reference as on your confirmation, like BK-7Q2M9XKD';
    expect(refusal('booking 12', BookingReferenceOrEmpty)).toBe(words);
    expect(refusal('BK-7Q2M9XK0', BookingReferenceOrEmpty)).toBe(words);
    expect(refusal(12345678, BookingReferenceOrEmpty)).toBe(words);
  });
});

describe('the hour the clocks skip (issue 27)', () => {
  // The clocks go forward at 1am on the last Sunday of March: 30 March 2031. They go back on 27 October 2030.
  it('is 1am to 1:59am on the last Sunday of March, and no other time', async () => {
    const { ukTimeSkipped } = await loadClockChanges();
    expect([ukTimeSkipped('2031-03-30', 1, 0), ukTimeSkipped('2031-03-30', 1, 30), ukTimeSkipped('2031-03-30', 1, 59)]).toEqual([true, true, true]);
    expect([ukTimeSkipped('2031-03-30', 0, 55), ukTimeSkipped('2031-03-30', 0, 59), ukTimeSkipped('2031-03-30', 2, 0), ukTimeSkipped('2031-03-30', 14, 30)])
      .toEqual([false, false, false, false]);
    expect([ukTimeSkipped('2031-03-23', 1, 30), ukTimeSkipped('2031-03-31', 1, 30), ukTimeSkipped('2030-06-01', 1, 30)]).toEqual([false, false, false]);
  });

  it('is not the hour that happens twice in October', async () => {
    const { ukTimeSkipped } = await loadClockChanges();
    expect([ukTimeSkipped('2030-10-27', 1, 0), ukTimeSkipped('2030-10-27', 1, 30), ukTimeSkipped('2030-10-27', 2, 0)]).toEqual([false, false, false]);
  });

  it('is no business of a day that does not exist: the date is refused for itself', async () => {
    const { ukTimeSkipped } = await loadClockChanges();
    expect([ukTimeSkipped('2031-02-30', 1, 30), ukTimeSkipped('2031-02-29', 12, 0), ukTimeSkipped('30/03/2031', 1, 30)]).toEqual([false, false, false]);
  });

  it('is refused in words that say why and what to choose instead', async () => {
    const { SKIPPED_HOUR_MESSAGE } = await loadClockChanges();
    expect(SKIPPED_HOUR_MESSAGE).toBe(
      'The clocks go forward at 1am that night, so times from 1am to 1:59am do not exist. Please choose 2am or later, or 12:55am or earlier.');
  });
});

describe('free waiting (issue 27, README settings)', () => {
  it('is 45 minutes after landing at airports and 15 elsewhere when the operator has not set it, or left it empty', () => {
    const settingsList: Settings[] = [{}, { FREE_WAITING_AIRPORT_MINUTES: '', FREE_WAITING_MINUTES: '' }, { FREE_WAITING_AIRPORT_MINUTES: '   ', FREE_WAITING_MINUTES: ' ' }];
    for (const settings of settingsList) {
      expect([freeWaitingAirport(settings), freeWaitingElsewhere(settings)], JSON.stringify(settings)).toEqual([45, 15]);
    }
  });

  it('is the whole number of minutes the operator sets, none included', () => {
    expect([freeWaitingAirport({ FREE_WAITING_AIRPORT_MINUTES: '60' }), freeWaitingElsewhere({ FREE_WAITING_MINUTES: '0' })]).toEqual([60, 0]);
    expect([freeWaitingAirport({ FREE_WAITING_AIRPORT_MINUTES: ' 90 ' }), freeWaitingElsewhere({ FREE_WAITING_MINUTES: '600' })]).toEqual([90, 600]);
  });

  it('keeps the default when the setting is not a whole number of minutes up to 10 hours (the console refuses more)', () => {
    for (const value of ['7.5', '-5', '-0.5', 'lots', '15 minutes', '1e1x', '601', '720']) {
      expect([freeWaitingAirport({ FREE_WAITING_AIRPORT_MINUTES: value }), freeWaitingElsewhere({ FREE_WAITING_MINUTES: value })], value).toEqual([45, 15]);
    }
  });

  it('goes with the pickup: the airport minutes for an airport pickup, the others elsewhere, in words', () => {
    const settings = { FREE_WAITING_AIRPORT_MINUTES: '50', FREE_WAITING_MINUTES: '1' };
    expect([freeWaitingFor(settings, true), freeWaitingFor(settings, false)]).toEqual([50, 1]);
    expect(freeWaitingRule(settings)).toBe('Free waiting: 50 minutes after landing at airports, 1 minute elsewhere.');
    expect([freeWaitingText(50, true), freeWaitingText(1, false), freeWaitingText(0, true)])
      .toEqual(['50 minutes of free waiting after the flight lands', '1 minute of free waiting after the pickup time', 'No free waiting time']);
  });
});
