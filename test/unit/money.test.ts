import { describe, expect, it } from 'vitest';
import { finalPricePence, formatExactPrice, formatWholePrice, penceToPounds, poundsToPence } from '../../src/domain/money';

describe('money in integer pence', () => {
  it('turns pence into the numeric strings of the API and back', () => {
    expect(penceToPounds(4924)).toBe('49.24');
    expect(penceToPounds(5)).toBe('0.05');
    expect(penceToPounds(-150)).toBe('-1.50');
    expect(poundsToPence('49.24')).toBe(4924);
    expect(poundsToPence('49.2')).toBe(4920);
    expect(poundsToPence('49')).toBe(4900);
    expect(poundsToPence('abc')).toBeNaN();
    expect(() => penceToPounds(1.5)).toThrow();
  });

  it('shows prices rounded to whole pounds with the currency symbol, £ by default (SPEC 9)', () => {
    expect(formatWholePrice('49.24')).toBe('£49');
    expect(formatWholePrice('49.50')).toBe('£50');
    expect(formatWholePrice('1234.00', '€')).toBe('€1,234');
    expect(formatExactPrice('1234.5')).toBe('£1,234.50');
  });

  it('makes the final price the price times the chosen quantity (SPEC 4)', () => {
    expect(finalPricePence('46.76', 3)).toBe(14028);
  });
});
