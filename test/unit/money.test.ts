import { describe, expect, it } from 'vitest';
import { DEFAULT_CURRENCY, finalPricePence, formatAmount, formatExactPrice, formatWholePrice, penceToPounds, poundsToPence, roundToPoundsPence } from '../../src/domain/money';

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

describe('one price (decision 21)', () => {
  it('rounds to whole pounds, half a pound up', () => {
    expect([5449, 5450, 5451, 5400, 49, 50, 0].map(roundToPoundsPence)).toEqual([5400, 5500, 5500, 5400, 0, 100, 0]);
  });

  it('shows whole pounds without pence and any other amount to the penny', () => {
    expect(formatAmount('54.00')).toBe('£54');
    expect(formatAmount('1234.00')).toBe('£1,234');
    expect(formatAmount('54.37')).toBe('£54.37');
    expect(formatAmount('54.5', '€')).toBe('€54.50');
    // A Rounding line that takes pence off.
    expect(formatExactPrice('-0.24')).toBe('-£0.24');
    expect(formatExactPrice('-1234.50')).toBe('-£1,234.50');
  });
});

describe('amounts at their edges', () => {
  it('writes pence as pounds, with the sign for a negative amount and none for zero, and refuses part of a penny', () => {
    expect([penceToPounds(0), penceToPounds(5), penceToPounds(-5), penceToPounds(-12345), penceToPounds(100)]).toEqual(['0.00', '0.05', '-0.05', '-123.45', '1.00']);
    expect(() => penceToPounds(1.5)).toThrow('Pence must be an integer: 1.5');
  });

  it('reads pounds as people and the API write them, and nothing else', () => {
    expect([poundsToPence('45.5'), poundsToPence(' 45.50 '), poundsToPence('45'), poundsToPence('-0.05'), poundsToPence(45.5), poundsToPence(0.1 + 0.2)])
      .toEqual([4550, 4550, 4500, -5, 4550, 30]);
    for (const bad of ['£45', '45.505', 'x45', '45x', '', '.5', '4 5']) expect(poundsToPence(bad), bad).toBeNaN();
  });

  it('shows £0 or £0.00 for what is not an amount, in the currency given', () => {
    expect(formatWholePrice('n/a')).toBe('£0');
    expect(formatExactPrice('n/a')).toBe('£0.00');
    expect(formatWholePrice('n/a', '€')).toBe('€0');
    expect(formatExactPrice('n/a', '€')).toBe('€0.00');
    expect(DEFAULT_CURRENCY).toBe('£');
  });

  it('puts the minus before the currency, and none on zero', () => {
    expect(formatExactPrice('-1234.5')).toBe('-£1,234.50');
    expect(formatExactPrice('0')).toBe('£0.00');
    expect(formatExactPrice('1234567.89')).toBe('£1,234,567.89');
  });
});
