// Decision 20: one phone rule for every form and API body (SPEC 5's pattern, or
// any number libphonenumber-js judges valid, read as UK by default), stored as
// E.164 and shown formatted; and booking references for the contact form.
import { describe, expect, it } from 'vitest';
import { create, StructError } from 'superstruct';
import { getCountries, getExampleNumber } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { formatPhone, isPhone, normalisePhone, Phone, PhoneOrEmpty } from '../../src/domain/phone';
import { currencyOf, isEnabled, settingsFromList } from '../../src/domain/settings';
import { isStoredPhone } from '../../src/domain/detailsValidation';
import { PHONE_MESSAGE } from '../../src/domain/messages';
import { BOOKING_REFERENCE_ALPHABET, BookingReferenceOrEmpty, normaliseBookingReference } from '../../src/domain/bookingReference';
import { newBookingNumber } from '../../src/server/bookings/bookingNumber';

describe('the phone rule', () => {
  it('accepts UK numbers as people write them and stores them as E.164', () => {
    expect([
      '07700 900123', '+44 7700 900123', '447700900123', '07911 123456', '0044 7911 123456',
      '+44 20 7946 0321', '020 7946 0321', '(020) 7946-0321', '+44 (0) 20 7946 0321', ' 0800 123 4567 ',
    ].map(normalisePhone)).toEqual([
      '+447700900123', '+447700900123', '+447700900123', '+447911123456', '+447911123456',
      '+442079460321', '+442079460321', '+442079460321', '+442079460321', '+448001234567',
    ]);
  });

  it('accepts numbers abroad that libphonenumber-js knows, written with + and the country code', () => {
    expect(['+353 86 123 4567', '+1 202 555 0143', '+33 6 12 34 56 78'].map(normalisePhone))
      .toEqual(['+353861234567', '+12025550143', '+33612345678']);
  });

  it("accepts SPEC 5's +xxx xxx xxx xxx, with or without its spaces, even where libphonenumber-js knows no such number", () => {
    expect(['+1 234 567 890', '+44 770 090 012', '+123 456 789 012', '+44770090012', '+0 123 456 789', '+012 345 678 901']
      .map(normalisePhone))
      .toEqual(['+1234567890', '+44770090012', '+123456789012', '+44770090012', '+0123456789', '+012345678901']);
    // Boundaries of SPEC's pattern: 1 to 3 digits, then 9 (10 to 12 digits in all), for a number libphonenumber-js does not know.
    expect(['+012345678', '+0123456789012'].map(normalisePhone)).toEqual([null, null]);
  });

  it("accepts Ofcom's numbers reserved for drama, which examples and tests use, and nothing next to them", () => {
    expect(['07700 900000', '07700 900999', '01632 960123', '0115 496 0123'].map(isPhone)).toEqual([true, true, true, true]);
    expect(['07700 901000', '01632 961000', '0115 496 1000'].map(isPhone)).toEqual([false, false, false]);
  });

  it('refuses what is not a phone number, with no guessing', () => {
    for (const bad of [
      '', '   ', '12345', '999', '07911 12345', '+44 7911 1234567', '07911 123456 ext 1', '07911 123456x', '++44 7911 123456',
      '+44 7911 123456 +1', '0791 one two three', '+4444 770 090 012', '07911.123456', `0${'7'.repeat(30)}`,
    ]) {
      expect(normalisePhone(bad), bad).toBeNull();
    }
    expect(normalisePhone(null)).toBeNull();
  });

  it('stores a form that is its own normal form and passes the cheap check of the first page', () => {
    for (const typed of ['07700 900123', '+44 20 7946 0321', '+1 234 567 890', '+353 861 234 567']) {
      const stored = normalisePhone(typed)!;
      expect(normalisePhone(stored), typed).toBe(stored);
      expect(isStoredPhone(stored), typed).toBe(true);
      expect(isStoredPhone(typed), typed).toBe(false);
    }
  });

  it("accepts every country's example number written internationally, stored so the first page's cheap check agrees", () => {
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const stored = normalisePhone(example.formatInternational());
      expect(stored, country).toBe(example.number);
      expect(isStoredPhone(stored!), country).toBe(true);
      expect(formatPhone(stored), country).toBe(example.formatInternational());
    }
  });

  it('shows a stored number formatted: international for known numbers, SPEC groups for the others, older text as it is', () => {
    expect(['+447700900123', '+442079460321', '+447911123456', '+1234567890', '+123456789012', '+44 207 946 018', 'call me', '', null]
      .map(formatPhone))
      .toEqual(['+44 7700 900123', '+44 20 7946 0321', '+44 7911 123456', '+1 234 567 890', '+123 456 789 012', '+44 207 946 018', 'call me', '', '']);
  });

  it('is a struct for API bodies: numbers from number inputs too, normalised, refused with SPEC 5\'s text', () => {
    expect(create('07700 900123', Phone)).toBe('+447700900123');
    expect(create(447700900123, Phone)).toBe('+447700900123');
    expect(create('', PhoneOrEmpty)).toBe('');
    expect(create('+44 20 7946 0321', PhoneOrEmpty)).toBe('+442079460321');
    for (const [value, struct] of [['', Phone], ['12345', Phone], [12345, PhoneOrEmpty], ['0791 one', PhoneOrEmpty]] as const) {
      expect(() => create(value, struct), String(value)).toThrow(StructError);
      try { create(value, struct); } catch (e) { expect((e as StructError).message, String(value)).toBe(PHONE_MESSAGE); }
    }
  });
});

describe('the stored form check (first page)', () => {
  it('takes E.164 only', () => {
    expect(['+447911123456', '+1234567890', '+123456789012345'].map(isStoredPhone)).toEqual([true, true, true]);
    expect(['07911 123456', '+44 7911 123456', '+1234567890123456', '+12345', ''].map(isStoredPhone))
      .toEqual([false, false, false, false, false]);
  });
});

describe('booking references', () => {
  it('reads the references the site issues, leniently typed, as stored', () => {
    expect(['BK-7Q2M9XKD', 'bk-7q2m9xkd', 'BK 7Q2M 9XKD', 'BK7Q2M9XKD', ' bk-7q2m9xkd '].map(normaliseBookingReference))
      .toEqual(Array(5).fill('BK-7Q2M9XKD'));
    // 600 references draw 4,800 random bytes: more than one 4 kB draw of the pool.
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const issued = newBookingNumber();
      expect(normaliseBookingReference(issued), issued).toBe(issued);
      for (const ch of issued.slice(3)) seen.add(ch);
    }
    // Every character of the alphabet is used, and only those.
    expect([...seen].sort().join('')).toBe([...BOOKING_REFERENCE_ALPHABET].sort().join(''));
  });

  it('are drawn from 32 characters, which divide the 256 values of a random byte evenly (each equally likely)', () => {
    expect(BOOKING_REFERENCE_ALPHABET).toHaveLength(32);
    expect(BOOKING_REFERENCE_ALPHABET).toBe('ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
  });

  it('refuses anything else: wrong length, 0/O/1/I, another prefix, bare numbers', () => {
    for (const bad of ['BK-7Q2M9XK', 'BK-7Q2M9XKDA', 'BK-0Q2M9XKD', 'BK-OQ2M9XKD', 'BK-1Q2M9XKD', 'BK-IQ2M9XKD', 'XX-7Q2M9XKD', '12345', '']) {
      expect(normaliseBookingReference(bad), bad).toBeNull();
    }
    expect(create(' bk-7q2m9xkd', BookingReferenceOrEmpty)).toBe('BK-7Q2M9XKD');
    expect(create('', BookingReferenceOrEmpty)).toBe('');
    expect(() => create(12345, BookingReferenceOrEmpty)).toThrow(/booking reference/);
  });
});

describe('the phone rule at its edges', () => {
  it('reads nothing from nothing, spaces around a number aside', () => {
    for (const empty of ['', '   ', null, undefined]) expect(normalisePhone(empty as never), String(empty)).toBeNull();
    expect(normalisePhone('  07700 900123  ')).toBe('+447700900123');
    expect(normalisePhone(' +44 20 7946 0321')).toBe('+442079460321');
  });

  it('refuses a number with an extension, and anything over 30 characters even when it is a number', () => {
    expect(normalisePhone('020 7946 0321 ext. 12')).toBeNull();
    expect(normalisePhone('+44 20 7946 0321'.padEnd(31, ' ') + '1')).toBeNull();
    expect(normalisePhone('0 2 0 7 9 4 6 0 3 2 1')).toBe('+442079460321');
    // 30 characters are taken, 31 are not.
    expect(normalisePhone(`020${' '.repeat(18)}7946 0321`)).toBe('+442079460321');
    expect(normalisePhone(`020${' '.repeat(19)}7946 0321`)).toBeNull();
  });

  it('takes a number from a number input, and leaves an empty one empty', () => {
    expect(create('  ', PhoneOrEmpty)).toBe('');
    expect(create(' 07700 900123 ', PhoneOrEmpty)).toBe('+447700900123');
    expect(() => create('call me', PhoneOrEmpty)).toThrow(PHONE_MESSAGE);
  });

  it('shows an empty or older record as it was written', () => {
    expect(formatPhone(null)).toBe('');
    expect(formatPhone('  ')).toBe('');
    expect(formatPhone(' ring the office ')).toBe('ring the office');
  });
});

describe('reading the settings', () => {
  it('takes enable and yes, in any case and with spaces, as on; anything else or nothing as off', () => {
    expect(isEnabled({ A: ' Enable ' }, 'A')).toBe(true);
    expect(isEnabled({ A: 'YES' }, 'A')).toBe(true);
    expect(isEnabled({ A: 'enabled' }, 'A')).toBe(false);
    expect(isEnabled({}, 'A')).toBe(false);
  });

  it("uses the operator's currency, else the pound", () => {
    expect(currencyOf({ CURRENCY: ' € ' })).toBe('€');
    expect(currencyOf({ CURRENCY: '  ' })).toBe('£');
    expect(currencyOf({})).toBe('£');
  });

  it('turns the settings list of GET /setting into a map', () => {
    expect(settingsFromList([{ setting_name: 'CURRENCY', setting_value: '£' }, { setting_name: 'GRACE_TIME', setting_value: '120' }]))
      .toEqual({ CURRENCY: '£', GRACE_TIME: '120' });
    expect(settingsFromList([])).toEqual({});
  });
});
