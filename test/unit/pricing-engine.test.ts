import { describe, expect, it } from 'vitest';
import { distanceFarePence, extraPricesFrom, roundingLine } from '../../src/server/pricing/engine';
import { cheapestFirst, type PricedOffer } from '../../src/server/pricing/quote';
import { estimateDistance, estimatedSeconds, greatCircleMiles } from '../../src/server/geo/distance';

const saloon = { base_fare_pence: 400, minimum_fare_pence: 2200, bands: [{ from_miles: 10, per_mile_pence: 185 }, { from_miles: 0, per_mile_pence: 260 }] };

describe('distance fares', () => {
  it('charges the base fare plus each band at its own rate', () => {
    // 400 + 10 x 260 + 10.4 x 185 = 400 + 2600 + 1924
    expect(distanceFarePence(saloon, 20.4)).toBe(4924);
  });

  it('never charges less than the minimum fare', () => {
    expect(distanceFarePence(saloon, 2)).toBe(2200);
  });
});

describe('the distance estimate', () => {
  it('measures great-circle miles between coordinates', () => {
    // Heathrow T5 to Trafalgar Square is about 15.6 miles as the crow flies.
    const miles = greatCircleMiles({ lat: 51.4723, lon: -0.488 }, { lat: 51.508, lon: -0.1281 });
    expect(miles).toBeGreaterThan(15);
    expect(miles).toBeLessThan(16.5);
  });

  it('applies the road factor and an average speed, and says it is an estimate', async () => {
    const leg = await estimateDistance.leg(
      { text: 'a', lat: 51.4723, lon: -0.488 }, { text: 'b', lat: 51.508, lon: -0.1281 });
    expect(leg.miles).toBeCloseTo(20.4, 1);
    expect(leg.seconds).toBe(estimatedSeconds(leg.miles));
    expect(estimatedSeconds(10)).toBe(1800 + 300);
    expect(leg.estimated).toBe(true);
  });
});

describe('extras priced from the settings (SPEC 3)', () => {
  it('takes each extra\'s price in pounds, and an unreadable or negative one as 0 (not offered)', () => {
    expect(extraPricesFrom({ MEET_AND_GREET: '15', BABY_PRICE_PER_SEAT: '-2', BOOSTER_PRICE_PER_SEAT: 'abc', WHEEL_CHAIR: '0', SPECIAL_LUGGAGE_PER_PRICE: '7.50' }))
      .toMatchObject({ meet_and_greet: 1500, baby_seats: 0, booster_seats: 0, wheel_chair: 0, special_luggage: 750 });
  });
});

describe('a rounded total (decision 21)', () => {
  it('adds a Rounding line to the outbound leg by the amount the total moved, and none when it did not move', () => {
    const lines = [{ code: 'fare' as const, leg: 'outbound' as const, label: 'Journey fare', pence: 13248 }];
    expect(roundingLine(lines, true)).toEqual({ code: 'rounding', leg: 'outbound', label: 'Rounding', pence: -48 });
    expect(roundingLine([{ ...lines[0], pence: 13200 }], true)).toBeNull();
    expect(roundingLine(lines, false)).toBeNull();
  });
});

describe('the offers\' order (decision 21)', () => {
  const offer = (name: string, unitPence: number) => ({ offer: { vehicle_type: name }, unitPence } as unknown as PricedOffer);
  it('is cheapest first, those without a price last, and the operator\'s order between equal prices', () => {
    const order = cheapestFirst([offer('A', 5000), offer('B', 0), offer('C', 3000), offer('D', 5000), offer('E', 3000), offer('F', 0), offer('G', 5000)]);
    expect(order.map((o) => o.offer.vehicle_type).join('')).toBe('CEADGBF');
  });
});
