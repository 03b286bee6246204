// Issue 43 §4 (decision 60): the rules of keeping personal data only as long as needed. How long (the settings and
// their ranges), from when (the journey, its later leg), what an address keeps (its postcode district), what a
// change's or an invoice's values keep, when an address may be erased, what an erase keeps and says it did, and how the
// audit log names the address.
import { describe, expect, it } from 'vitest';
import {
  FINISHED_STATUSES, KEPT_ON_ERASE, RETENTION_RANGES, RETENTION_SETTINGS, addMonths, eraseRefusal, erasedWords, invoicesCutoff,
  isStillToCome, journeyEnd, maskedEmail, mayHandlePrivacyRequests, personalDataGoesAt, privacyEmailProblem, recordsCutoff,
  retentionTimes, type EraseAnswer,
} from '../../src/domain/retention';
import { settingInfo, settingProblem, SETTING_GROUPS } from '../../src/domain/settingsCatalogue';
import { anonymousJourney, mentioning, postcodeDistrict } from '../../src/server/privacy/redact';

const at = (iso: string) => new Date(iso);

describe('the postcode district an anonymous address keeps', () => {
  it('is the outward code of the full postcode, wherever it stands and however it is typed', () => {
    expect(postcodeDistrict('10 Downing Street, London SW1A 2AA')).toBe('SW1A');
    expect(postcodeDistrict('Heathrow Airport Terminal 5, Hounslow TW6 2GA')).toBe('TW6');
    expect(postcodeDistrict('flat 2, 4 high st, leeds ls1 4dy')).toBe('LS1');
    expect(postcodeDistrict('M1 1AE Manchester Piccadilly')).toBe('M1');
    expect(postcodeDistrict('Trafalgar Square, London WC2N5DN')).toBe('WC2N');
  });

  it('is an outward code that ends the address when it has no full postcode', () => {
    expect(postcodeDistrict('Reading RG1')).toBe('RG1');
    expect(postcodeDistrict('Somewhere in London SW1A.')).toBe('SW1A');
  });

  it('is nothing for an address with no postcode (it keeps nothing), and for none at all', () => {
    expect(postcodeDistrict('Heathrow Airport Terminal 5')).toBe('');
    expect(postcodeDistrict('Flat B1, Kings Road')).toBe('');
    expect(postcodeDistrict('')).toBe('');
    expect(postcodeDistrict(null)).toBe('');
    // Letters that are no UK postcode area are not a district.
    expect(postcodeDistrict('1 Rue de Rivoli, QQ1 1AA')).toBe('');
  });
});

describe('how long, from the settings', () => {
  it('is 12 months and 6 years when empty, unreadable or out of range', () => {
    expect(retentionTimes({})).toEqual({ recordsMonths: 12, invoiceYears: 6 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: ' ', INVOICE_RETENTION_YEARS: 'six' })).toEqual({ recordsMonths: 12, invoiceYears: 6 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '11', INVOICE_RETENTION_YEARS: '5' })).toEqual({ recordsMonths: 12, invoiceYears: 6 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '121', INVOICE_RETENTION_YEARS: '21' })).toEqual({ recordsMonths: 12, invoiceYears: 6 });
  });

  it('is what the office set within the range, its edges included', () => {
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '24', INVOICE_RETENTION_YEARS: '7' })).toEqual({ recordsMonths: 24, invoiceYears: 7 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: ' 12 ', INVOICE_RETENTION_YEARS: '6' })).toEqual({ recordsMonths: 12, invoiceYears: 6 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '120', INVOICE_RETENTION_YEARS: '20' })).toEqual({ recordsMonths: 120, invoiceYears: 20 });
  });

  it('reads the records\' months and the invoices\' years each from its own setting', () => {
    expect(RETENTION_SETTINGS).toEqual({ records: 'RECORDS_RETENTION_MONTHS', invoices: 'INVOICE_RETENTION_YEARS' });
    expect(RETENTION_RANGES).toEqual({ records: { min: 12, max: 120, fallback: 12 }, invoices: { min: 6, max: 20, fallback: 6 } });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '24' })).toEqual({ recordsMonths: 24, invoiceYears: 6 });
    expect(retentionTimes({ INVOICE_RETENTION_YEARS: '7' })).toEqual({ recordsMonths: 12, invoiceYears: 7 });
    // Years are not months: 13 is a number of months the records take, but no number of years invoices take.
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '13', INVOICE_RETENTION_YEARS: '13' })).toEqual({ recordsMonths: 13, invoiceYears: 13 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '7', INVOICE_RETENTION_YEARS: '24' })).toEqual({ recordsMonths: 12, invoiceYears: 6 });
  });

  it('takes a whole number typed with spaces around it', () => {
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: ' 24 ', INVOICE_RETENTION_YEARS: '\t7\n' })).toEqual({ recordsMonths: 24, invoiceYears: 7 });
    expect(retentionTimes({ RECORDS_RETENTION_MONTHS: '0024', INVOICE_RETENTION_YEARS: '07' })).toEqual({ recordsMonths: 24, invoiceYears: 7 });
  });

  it('takes nothing but digits, at most four of them: a decimal, a sign, an exponent or hex is the default', () => {
    for (const value of ['24.5', '24.0', '+24', '1e2', '0x18', '00024', '24 months', 'months 24', '2 4', '-24', '٢٤']) {
      expect(retentionTimes({ RECORDS_RETENTION_MONTHS: value }).recordsMonths, value).toBe(12);
    }
    for (const value of ['7.0', '+7', '7e0', '0x7', '00007', '7 years']) {
      expect(retentionTimes({ INVOICE_RETENTION_YEARS: value }).invoiceYears, value).toBe(6);
    }
  });

  it('is refused by the console outside its range, with the least and why in the field\'s message', () => {
    const records = settingInfo('RECORDS_RETENTION_MONTHS')!;
    const invoices = settingInfo('INVOICE_RETENTION_YEARS')!;
    expect(records.group).toBe('Records and privacy');
    expect(invoices.group).toBe('Records and privacy');
    expect(SETTING_GROUPS).toContain('Records and privacy');
    for (const ok of ['', '12', '24', '120', ' 36 ']) expect(settingProblem(records, ok)).toBeNull();
    for (const bad of ['11', '0', '121', '12.5', '-12', 'a year']) {
      expect(settingProblem(records, bad)).toBe(
        "Keep booking records for: a whole number of months from 12 (the licensing rules' least) to 120, or leave it empty for 12.");
    }
    for (const ok of ['', '6', '7', '20']) expect(settingProblem(invoices, ok)).toBeNull();
    for (const bad of ['5', '21', '6.5']) {
      expect(settingProblem(invoices, bad)).toBe("Keep VAT invoices for: a whole number of years from 6 (HMRC's least) to 20, or leave it empty for 6.");
    }
  });
});

describe('from when', () => {
  it('counts calendar months back, a day the month lacks being its last', () => {
    expect(addMonths(at('2027-03-15T10:30:00Z'), -12).toISOString()).toBe('2026-03-15T10:30:00.000Z');
    expect(addMonths(at('2027-03-31T08:00:00Z'), -1).toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(addMonths(at('2028-03-31T08:00:00Z'), -1).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(addMonths(at('2027-01-31T08:00:00Z'), 13).toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(addMonths(at('2027-06-01T00:00:00Z'), -72).toISOString()).toBe('2021-06-01T00:00:00.000Z');
  });

  it('keeps the time of day to the millisecond, and runs over a year\'s end either way', () => {
    expect(addMonths(at('2027-03-15T10:30:45.123Z'), -1).toISOString()).toBe('2027-02-15T10:30:45.123Z');
    expect(addMonths(at('2027-01-15T23:59:59.999Z'), -1).toISOString()).toBe('2026-12-15T23:59:59.999Z');
    expect(addMonths(at('2026-12-15T00:00:00.001Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.001Z');
    expect(addMonths(at('2027-05-20T06:07:08.009Z'), 0).toISOString()).toBe('2027-05-20T06:07:08.009Z');
  });

  it('takes a month\'s last day for a day the other month lacks, forward and back', () => {
    expect(addMonths(at('2027-05-31T12:00:00Z'), -1).toISOString()).toBe('2027-04-30T12:00:00.000Z');
    expect(addMonths(at('2027-03-31T12:00:00Z'), 1).toISOString()).toBe('2027-04-30T12:00:00.000Z');
    expect(addMonths(at('2027-01-31T12:00:00Z'), 1).toISOString()).toBe('2027-02-28T12:00:00.000Z');
    expect(addMonths(at('2028-02-29T12:00:00Z'), 12).toISOString()).toBe('2029-02-28T12:00:00.000Z');
    expect(addMonths(at('2028-02-29T12:00:00Z'), -12).toISOString()).toBe('2027-02-28T12:00:00.000Z');
    // A day every month has is kept as it is: 30 April one month on is 30 May, not 31.
    expect(addMonths(at('2027-04-30T12:00:00Z'), 1).toISOString()).toBe('2027-05-30T12:00:00.000Z');
    expect(addMonths(at('2027-02-28T12:00:00Z'), 1).toISOString()).toBe('2027-03-28T12:00:00.000Z');
  });

  it('counts in UTC across the clocks\' changes: the same instant of the UTC day, an hour apart on the UK clock', () => {
    // 10 April 2027 12:00 BST (11:00 UTC) one month back is 10 March 11:00 UTC, which the UK clock shows as 11:00 GMT.
    expect(addMonths(at('2027-04-10T11:00:00Z'), -1).toISOString()).toBe('2027-03-10T11:00:00.000Z');
    expect(addMonths(at('2027-11-10T00:30:00Z'), -1).toISOString()).toBe('2027-10-10T00:30:00.000Z');
  });

  it('is the journey: a booking 13 months past it is due, one 11 months past is not', () => {
    const now = at('2027-06-10T12:00:00Z');
    const cutoff = recordsCutoff(now, { recordsMonths: 12, invoiceYears: 6 });
    expect(cutoff.toISOString()).toBe('2026-06-10T12:00:00.000Z');
    expect(addMonths(now, -13).getTime()).toBeLessThan(cutoff.getTime());
    expect(addMonths(now, -11).getTime()).toBeGreaterThan(cutoff.getTime());
    expect(recordsCutoff(now, { recordsMonths: 24, invoiceYears: 6 }).toISOString()).toBe('2025-06-10T12:00:00.000Z');
    expect(invoicesCutoff(now, { recordsMonths: 12, invoiceYears: 6 }).toISOString()).toBe('2021-06-10T12:00:00.000Z');
    expect(invoicesCutoff(now, { recordsMonths: 12, invoiceYears: 7 }).toISOString()).toBe('2020-06-10T12:00:00.000Z');
  });

  it('is kept for the months set after the journey, and invoices twelve months a year', () => {
    const end = at('2027-01-31T09:00:00Z');
    expect(personalDataGoesAt(end, { recordsMonths: 13, invoiceYears: 6 }).toISOString()).toBe('2028-02-29T09:00:00.000Z');
    expect(personalDataGoesAt(end, { recordsMonths: 120, invoiceYears: 6 }).toISOString()).toBe('2037-01-31T09:00:00.000Z');
    expect(invoicesCutoff(at('2028-02-29T09:00:00Z'), { recordsMonths: 12, invoiceYears: 20 }).toISOString()).toBe('2008-02-29T09:00:00.000Z');
    expect(invoicesCutoff(at('2027-02-28T09:00:00Z'), { recordsMonths: 12, invoiceYears: 1 }).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(recordsCutoff(at('2027-03-31T09:00:00Z'), { recordsMonths: 13, invoiceYears: 6 }).toISOString()).toBe('2026-02-28T09:00:00.000Z');
  });

  it('of a booking with a return is its later leg', () => {
    const pickup = at('2027-01-05T09:00:00Z');
    const back = at('2027-01-12T23:59:00Z');
    expect(journeyEnd(pickup, null)).toBe(pickup);
    expect(journeyEnd(pickup, back)).toBe(back);
    // A return written before its outbound (never by the forms) does not move it earlier.
    expect(journeyEnd(back, pickup)).toBe(back);
    // A return at the very instant of the pickup does not stand for it: the pickup is the end.
    expect(journeyEnd(pickup, new Date(pickup.getTime()))).toBe(pickup);
    expect(journeyEnd(pickup, new Date(pickup.getTime() + 1))?.getTime()).toBe(pickup.getTime() + 1);
    expect(personalDataGoesAt(back, { recordsMonths: 12, invoiceYears: 6 }).toISOString()).toBe('2028-01-12T23:59:00.000Z');
  });
});

describe('an erase on request', () => {
  const now = at('2027-06-10T12:00:00Z');
  const future = at('2027-06-11T08:00:00Z');
  const past = at('2027-05-01T08:00:00Z');

  it('is refused while a booking is still to come: not finished, cancelled or expired, its journey not yet over', () => {
    expect(isStillToCome({ status: 'confirmed', journeyEnd: future }, now)).toBe(true);
    expect(isStillToCome({ status: 'pending', journeyEnd: future }, now)).toBe(true);
    for (const status of ['completed', 'cancelled', 'expired', 'no_show']) expect(isStillToCome({ status, journeyEnd: future }, now)).toBe(false);
    expect(isStillToCome({ status: 'confirmed', journeyEnd: past }, now)).toBe(false);
    expect(isStillToCome({ status: 'confirmed', journeyEnd: now }, now)).toBe(false);
    expect(isStillToCome({ status: 'confirmed', journeyEnd: new Date(now.getTime() + 1) }, now)).toBe(true);
    expect(isStillToCome({ status: 'dispatched', journeyEnd: future }, now)).toBe(true);
    expect(FINISHED_STATUSES).toEqual(['completed', 'cancelled', 'expired', 'no_show']);
  });

  it('says which bookings stand in the way', () => {
    expect(eraseRefusal([{ booking_number: 'BK-1', status: 'completed', journeyEnd: past }], now)).toBeNull();
    expect(eraseRefusal([], now)).toBeNull();
    expect(eraseRefusal([
      { booking_number: 'BK-1', status: 'completed', journeyEnd: past }, { booking_number: 'BK-2', status: 'confirmed', journeyEnd: future },
    ], now)).toBe('This address cannot be erased yet: booking BK-2 is still to come. Cancel or finish it first, or erase after the journey.');
    expect(eraseRefusal([
      { booking_number: 'BK-2', status: 'confirmed', journeyEnd: future }, { booking_number: 'BK-3', status: 'pending', journeyEnd: future },
    ], now)).toBe('This address cannot be erased yet: bookings BK-2, BK-3 are still to come. Cancel or finish them first, or erase after the journey.');
    expect(eraseRefusal([
      { booking_number: 'BK-4', status: 'pending', journeyEnd: future }, { booking_number: 'BK-5', status: 'cancelled', journeyEnd: future },
      { booking_number: 'BK-6', status: 'confirmed', journeyEnd: future }, { booking_number: 'BK-7', status: 'confirmed', journeyEnd: future },
    ], now)).toBe('This address cannot be erased yet: bookings BK-4, BK-6, BK-7 are still to come. Cancel or finish them first, or erase after the journey.');
  });

  it('keeps the invoices, the non-personal record, the STOP list and the record of the request, each with why', () => {
    expect(KEPT_ON_ERASE.map((k) => k.what.split(' ').slice(0, 2).join(' '))).toEqual(['VAT invoices', "Each booking's", 'A phone', 'The record']);
    for (const k of KEPT_ON_ERASE) expect(k.why.length).toBeGreaterThan(20);
  });

  it('says word for word what it keeps and why', () => {
    expect(KEPT_ON_ERASE).toEqual([
      {
        what: "VAT invoices and their credit and debit notes, as issued (the buyer's name and the journey on them)",
        why: 'HMRC requires VAT records to be kept for 6 years (the "VAT invoices" setting); they are made anonymous when that time is up.',
      },
      {
        what: "Each booking's non-personal record: reference, dates and times, prices and payments, vehicle type, company, status, the driver and car it was dispatched with, and the postcode district of each address",
        why: "The operator's accounts and the licensing record of journeys; none of it names the passenger.",
      },
      { what: 'A phone number that answered STOP to texts', why: 'So that it is never texted again (the Privacy and Electronic Communications Regulations).' },
      {
        what: 'The record that this export or erasure was done: when, by whom, and the address shortened to its first letter and domain',
        why: 'To show the request was handled (UK GDPR accountability).',
      },
    ]);
  });

  it('is for administrators alone, of an address typed as one', () => {
    expect(mayHandlePrivacyRequests('admin')).toBe(true);
    for (const role of ['dispatcher', 'company', '', null, undefined]) expect(mayHandlePrivacyRequests(role)).toBe(false);
    expect(privacyEmailProblem('')).toBe('Email is required');
    expect(privacyEmailProblem('not an address')).toBe('Please enter a valid email address');
    expect(privacyEmailProblem(' ada@example.com ')).toBeUndefined();
  });

  it('is audited with the address shortened to its first letter and domain', () => {
    expect(maskedEmail(' Oliver.Bennett@Example.com ')).toBe('o…@example.com');
    expect(maskedEmail('x')).toBe('…');
    expect(maskedEmail('')).toBe('…');
    expect(maskedEmail('@example.com')).toBe('…');
    expect(maskedEmail('a@b')).toBe('a…@b');
    expect(maskedEmail('AB@x.io')).toBe('a…@x.io');
    // The domain is what follows the last @.
    expect(maskedEmail('"a@b"@example.com')).toBe('"…@example.com');
  });

  it('says once it is done how many bookings and contact records no longer hold the person, and the invoices kept', () => {
    const words = (bookings: number, passengers: number, invoices_kept: number) =>
      erasedWords({ bookings, already: 0, passengers, invoices_kept, kept: KEPT_ON_ERASE } satisfies EraseAnswer);
    expect(words(0, 0, 0)).toBe("Erased: 0 bookings and 0 contact records no longer hold this person's data.");
    expect(words(1, 1, 0)).toBe("Erased: 1 booking and 1 contact record no longer hold this person's data.");
    expect(words(2, 3, 0)).toBe("Erased: 2 bookings and 3 contact records no longer hold this person's data.");
    expect(words(1, 2, 1)).toBe("Erased: 1 booking and 2 contact records no longer hold this person's data. 1 VAT invoice is kept until their time.");
    expect(words(4, 1, 2)).toBe("Erased: 4 bookings and 1 contact record no longer hold this person's data. 2 VAT invoices are kept until their time.");
  });
});

describe('what the values of an anonymous record keep', () => {
  it("an invoice's journey: dates, times and the vehicle; each address its district; nothing else", () => {
    expect(anonymousJourney([
      { label: 'Pickup address', value: '10 Downing Street, London SW1A 2AA' }, { label: 'Drop-off address', value: 'Heathrow Airport Terminal 5' },
      { label: 'Pickup date', value: '14-03-2030' }, { label: 'Pickup time', value: '6:30 AM' }, { label: 'Flight / train', value: 'BA 286' },
      { label: 'Stop 1', value: '4 High St, Leeds LS1 4DY' }, { label: 'Return date', value: '16-03-2030' }, { label: 'Vehicle', value: 'Saloon, Albion' },
      { label: 'Pickup', value: 'Paddington Station, London W2 1HQ' }, { label: 'Drop-off', value: 'Reading RG1' },
    ])).toEqual([
      { label: 'Pickup address', value: 'SW1A' }, { label: 'Drop-off address', value: '' }, { label: 'Pickup date', value: '14-03-2030' },
      { label: 'Pickup time', value: '6:30 AM' }, { label: 'Stop 1', value: 'LS1' }, { label: 'Return date', value: '16-03-2030' },
      { label: 'Vehicle', value: 'Saloon, Albion' }, { label: 'Pickup', value: 'W2' }, { label: 'Drop-off', value: 'RG1' },
    ]);
  });

  it('a search for an address finds it whole, never inside another address, its dots and pluses literal', () => {
    const finds = (email: string, text: string) => new RegExp(mentioning(email), 'i').test(text);
    expect(finds('o@gmail.com', 'Called o@gmail.com.')).toBe(true);
    expect(finds('o@gmail.com', '{"email":"O@Gmail.com"}')).toBe(true);
    expect(finds('o@gmail.com', 'messagesToAddress:o@gmail.com')).toBe(true);
    expect(finds('o@gmail.com', 'Called bruno@gmail.com today')).toBe(false);
    expect(finds('o@gmail.com', 'o@gmail.com.evil.example')).toBe(false);
    expect(finds('o@gmail.com', 'o@gmail.community')).toBe(false);
    expect(finds('a.b@x.io', 'axb@x.io')).toBe(false);
    expect(finds('a+b@x.io', 'a+b@x.io')).toBe(true);
    expect(finds('a+b@x.io', 'aab@x.io')).toBe(false);
  });
});
