// Decision 23 'Addresses: never price a guess': what counts as a UK postcode in an address, which words name a
// town, what is the same place, and when a distance is an estimate.
import { describe, expect, it } from 'vitest';
import { findPostcode, extractPostcode } from '../../src/server/geo/postcodes';
import { Gazetteer } from '../../src/server/geo/gazetteer';
import { checkNotSamePlace, leg, type QuoteContext } from '../../src/server/pricing/quote';
import type { DistanceService } from '../../src/server/geo/distance';
import { DomainError } from '../../src/server/errors';
import { STATUS_OF } from '../../src/server/http/answers';
import { SAME_PLACE, unknownPlaceMessage } from '../../src/domain/messages';
import { addressField, sameAddressText, stopText } from '../../src/domain/places';
import { validateBookingForm, newBookingForm } from '../../src/domain/forms';

const g = Gazetteer.load();

describe('UK postcodes in an address', () => {
  it.each([
    ['Somewhere, M1 1AE', 'M1 1AE'], // A9 9AA
    ['Somewhere, B33 8TH', 'B33 8TH'], // A99 9AA
    ['Somewhere, W1A 0AX', 'W1A 0AX'], // A9A 9AA
    ['Somewhere, CR2 6XH', 'CR2 6XH'], // AA9 9AA
    ['Somewhere, DN55 1PT', 'DN55 1PT'], // AA99 9AA
    ['Somewhere, EC1A 1BB', 'EC1A 1BB'], // AA9A 9AA
    ['10 Downing Street, London sw1a2aa', 'SW1A 2AA'],
    ['RG1 1AA', 'RG1 1AA'],
  ])('reads a full postcode in every format: %s', (text, postcode) => {
    expect(findPostcode(text)).toMatchObject({ text: postcode, full: true });
    expect(extractPostcode(text)).toBe(postcode);
  });

  it('takes the last postcode when there are two', () => {
    expect(findPostcode('from RG1 1AA to SW1A 2AA')?.text).toBe('SW1A 2AA');
  });

  it.each([
    ['an area that does not exist', 'Somewhere ZZ9 9ZZ'],
    ['Q, V and X never start a postcode', 'Somewhere QA1 1AA'],
    ['an inward code with a letter postcodes never use (C I K M O V)', 'Somewhere RG1 1CA'],
    ['a number where the inward code has letters', 'Somewhere RG1 123'],
    ['letters run on after it', 'Somewhere RG1 1AAB'],
  ])('refuses what only looks like a postcode: %s', (_why, text) => {
    expect(extractPostcode(text)).toBeNull();
  });

  it('reads an outward code only at the end of the address', () => {
    expect(findPostcode('14 Castle Street, Reading RG1')).toMatchObject({ text: 'RG1', area: 'RG', full: false });
    expect(findPostcode('London SW1A.')).toMatchObject({ text: 'SW1A', full: false });
    expect(findPostcode('SE1')).toMatchObject({ text: 'SE1', area: 'SE' });
    expect(findPostcode('RG1 Castle Street')).toBeNull();
    expect(extractPostcode('Reading RG1')).toBeNull();
  });

  it('does not read a flat, unit or gate number as an outward code', () => {
    for (const text of ['Flat B1', '22 Acacia Avenue, Unit M1', 'Gate E1', 'Terminal N1']) expect(findPostcode(text), text).toBeNull();
    expect(findPostcode('Flat 3, Birmingham B1')).toMatchObject({ text: 'B1' });
  });
});

describe('towns named in an address', () => {
  it('reads the town, not a street named after one', () => {
    expect(g.find('10 London Road', null)).toBeNull();
    expect(g.find('10 Oxford St', null)).toBeNull();
    expect(g.find('London Road, Reading', null)).toMatchObject({ name: 'Reading', kind: 'town' });
    expect(g.find('Oxford Street, London', null)).toMatchObject({ name: 'London' });
  });

  it('takes a town called by a word every address uses only as the last part of the address', () => {
    expect(g.find('10 High Street', null)).toBeNull();
    expect(g.find('Flat 2, Church Lane', null)).toBeNull();
    expect(g.find('The Old Forge, Grove Hill', null)).toBeNull();
    expect(g.find('Clarks Village, Street', null)).toMatchObject({ name: 'Street', kind: 'town' });
    expect(g.find('Clarks Village, Street BA16 0BB', null)).toMatchObject({ name: 'Street' });
  });

  it('places a postcode or outward code at its postcode area when nothing better is named', () => {
    expect(g.find('Flat 3, 22 Acacia Avenue RG1', 'RG1')).toMatchObject({ name: 'Reading', kind: 'postcode-area' });
    expect(g.find('12 Imaginary Lane, Nowhere', null)).toBeNull();
  });
});

describe('the same place', () => {
  const at = (text: string, lat: number, lon: number, exact: boolean) => ({ text, lat, lon, exact });
  const refused = (f: () => void) => {
    try { f(); return null; } catch (err) { return err instanceof DomainError ? [STATUS_OF[err.kind], err.field, err.message] : err; }
  };

  it('is the same text, case, spacing and punctuation aside', () => {
    expect(sameAddressText('Paddington Station, London W2 1HQ', 'paddington station london  w2 1hq')).toBe(true);
    expect(sameAddressText('Paddington', 'Paddington Station')).toBe(false);
    expect(sameAddressText('', '')).toBe(false);
    expect(refused(() => checkNotSamePlace(at('Paddington', 1, 1, false), at('PADDINGTON', 2, 2, false), 0)))
      .toEqual([422, 'dropoff', SAME_PLACE]);
  });

  it('is the same known place or airport, however it is written', () => {
    expect(refused(() => checkNotSamePlace(at('Heathrow (LHR)', 51.47, -0.45, true), at('Heathrow Airport', 51.47, -0.45, true), 0)))
      .toEqual([422, 'dropoff', SAME_PLACE]);
  });

  it('is not two addresses placed only at the middle of one town, nor a round trip with a stop', () => {
    expect(refused(() => checkNotSamePlace(at('1 Castle Street, Reading', 51.45, -0.97, false), at('Reading Station, Reading', 51.45, -0.97, false), 0))).toBeNull();
    expect(refused(() => checkNotSamePlace(at('Paddington', 1, 1, true), at('Paddington', 1, 1, true), 1))).toBeNull();
  });

  it('is not two exact places on one line of latitude or of longitude', () => {
    expect(refused(() => checkNotSamePlace(at('North Gate', 51.50, -0.12, true), at('South Gate', 51.49, -0.12, true), 0))).toBeNull();
    expect(refused(() => checkNotSamePlace(at('East Gate', 51.50, -0.11, true), at('West Gate', 51.50, -0.12, true), 0))).toBeNull();
  });

  it('is refused by the quote form before any call, naming the drop-off', () => {
    const form = { ...newBookingForm(0), pickup: 'Canary Wharf', dropoff: ' canary wharf ' };
    expect(validateBookingForm(form).dropoff).toBe(SAME_PLACE);
    expect(validateBookingForm({ ...form, stops: [{ street_name: 'Wembley', number: '', postcode: '' }] }).dropoff).toBeUndefined();
  });
});

describe('the words and fields of an address', () => {
  it('says what it could not find and what to do', () => {
    expect(unknownPlaceMessage(' 12 Imaginary Lane ')).toBe('We could not find "12 Imaginary Lane". Pick a suggestion or add the postcode.');
  });

  it('reads a stop as number, street and postcode', () => {
    expect(stopText({ number: '14', street_name: 'Castle Street ', postcode: 'RG1 7SB' })).toBe('14 Castle Street RG1 7SB');
    expect(stopText({ street_name: 'Wembley Stadium, Wembley HA9 0WS', number: '', postcode: '' })).toBe('Wembley Stadium, Wembley HA9 0WS');
  });

  it('knows which fields are addresses, inside the booking call too', () => {
    expect(['pickup', 'dropoff', 'stops.2', 'bookingForm.dropoff', 'hourlyRateForm.pickup', 'pickup_date', 'stops.0.street_name', undefined]
      .map(addressField)).toEqual(['pickup', 'dropoff', 'stops.2', 'dropoff', 'pickup', null, null, null]);
  });
});

describe('an estimate', () => {
  const measured: DistanceService = { name: 'osrm', needsCoordinates: true, leg: async () => ({ miles: 10, seconds: 900, estimated: false }) };
  const ctx = { distance: measured } as unknown as QuoteContext;
  const exact = { text: 'a', lat: 51.5, lon: -0.1, exact: true };

  it('is what a route between a town or postcode area\'s middle is, even from a routing service', async () => {
    expect((await leg(ctx, exact, { ...exact, exact: true }, 'pickup', 'dropoff')).estimated).toBe(false);
    expect((await leg(ctx, exact, { ...exact, exact: false }, 'pickup', 'dropoff')).estimated).toBe(true);
  });

  it('is not what a service that reads the address text measures', async () => {
    const google = { ...ctx, distance: { ...measured, name: 'google', needsCoordinates: false } } as unknown as QuoteContext;
    expect((await leg(google, exact, { ...exact, exact: false }, 'pickup', 'dropoff')).estimated).toBe(false);
  });
});
