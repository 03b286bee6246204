// One way to round miles (src/domain/miles.ts): routing answers, estimates, price lines, the trip summary and the map.
import { describe, expect, it } from 'vitest';
import { formatMiles, milesFromMetres, roundMiles, wholeKm } from '../../src/domain/miles';

describe('miles', () => {
  it('are kept and shown to a tenth of a mile', () => {
    expect(roundMiles(12.34)).toBe(12.3);
    expect(roundMiles(12.35)).toBe(12.4);
    expect(milesFromMetres(16093.44)).toBe(10);
    expect(milesFromMetres(1000)).toBe(0.6);
    expect(formatMiles(3)).toBe('3.0 miles');
    expect(formatMiles(12.349, 'mi')).toBe('12.3 mi');
    expect(wholeKm(10)).toBe(16);
  });
});
