import { describe, expect, it } from 'vitest';
import { distanceFarePence } from '../../src/server/pricing/engine';
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
