import { describe, expect, it } from 'vitest';
import {
  BOOKING_FORM_MISSING, CAPACITY_EXCEEDED_PREFIX, HOURLY_FORM_MISSING, filterDistancePrices, filterHourlyPrices, lowestPrice,
} from '../../src/domain/priceFiltering';
import type { PriceDetail } from '../../src/domain/schemas';

const p = (company_id: number, max_seat: number, luggage: number, small_luggage: number, price: string): PriceDetail => ({
  vehicle_id: max_seat, company_id, company_name: `C${company_id}`, vehicle_image: '', vehicle_type: `V${max_seat}`,
  max_seat, luggage, small_luggage, price, final_price: price, breakdown: { currency: '£', final_price: price, lines: [] },
});
const list = [p(1, 4, 2, 2, '50.00'), p(2, 4, 2, 2, '45.00'), p(1, 8, 8, 8, '90.00'), p(2, 6, 4, 4, '70.00')];
const cheapestOn = { MULTIPLE_PRICES: 'enable', CHEAPEST_COMPANY_PRICE: 'enable' };

describe('distance price filtering (SPEC 5)', () => {
  it('keeps only vehicles that fit passengers, luggage and hand luggage', () => {
    const r = filterDistancePrices(list, { passengers: 5, luggages: 3, hand_luggages: 1 }, {});
    expect(r).toEqual({ ok: true, prices: [list[2], list[3]] });
  });

  it('names every limit the largest vehicle exceeds, with the exact SPEC 8 text', () => {
    const r = filterDistancePrices(list, { passengers: 10, luggages: 9, hand_luggages: 12 }, {});
    expect(r).toEqual({
      ok: false,
      error: `${CAPACITY_EXCEEDED_PREFIX}Passengers exceeded by 2, Luggage exceeded by 1, Hand Luggage exceeded by 4`,
    });
    expect(CAPACITY_EXCEEDED_PREFIX).toBe("Sorry we don't have any vehicle with requested options, the following limits are exceeded: ");
  });

  it('keeps only the company with the cheapest option when MULTIPLE_PRICES and CHEAPEST_COMPANY_PRICE are enable', () => {
    const r = filterDistancePrices(list, { passengers: 1, luggages: 0, hand_luggages: 0 }, cheapestOn);
    expect(r.ok && r.prices.map((x) => x.company_id)).toEqual([2, 2]);
    const off = filterDistancePrices(list, { passengers: 1, luggages: 0, hand_luggages: 0 }, { ...cheapestOn, CHEAPEST_COMPANY_PRICE: 'disable' });
    expect(off.ok && off.prices).toHaveLength(4);
    const hourly = filterHourlyPrices(list, {}, cheapestOn);
    expect(hourly.ok && hourly.prices.map((x) => x.company_id)).toEqual([2, 2]);
  });

  it('treats a missing saved form as an error', () => {
    expect(filterDistancePrices(list, null, {})).toEqual({ ok: false, error: BOOKING_FORM_MISSING });
    expect(filterHourlyPrices(list, undefined, {})).toEqual({ ok: false, error: HOURLY_FORM_MISSING });
    expect(BOOKING_FORM_MISSING).toBe('BookingForm data is missing.');
    expect(HOURLY_FORM_MISSING).toBe('HourlyRateForm data is missing.');
  });

  it('finds the lowest price among priced results', () => {
    expect(lowestPrice([...list, p(3, 4, 2, 2, '0.00')])).toBe(list[1]);
  });
});

describe('capacity at its limits (SPEC 5, 8)', () => {
  const exact = { passengers: 8, luggages: 8, hand_luggages: 8 };

  it('takes a vehicle filled exactly to its seats, cases and hand luggage, and refuses one more of each', () => {
    expect(filterDistancePrices(list, exact, {})).toEqual({ ok: true, prices: [list[2]] });
    expect(filterDistancePrices(list, { ...exact, passengers: 9 }, {})).toEqual({ ok: false, error: `${CAPACITY_EXCEEDED_PREFIX}Passengers exceeded by 1` });
    expect(filterDistancePrices(list, { ...exact, luggages: 9 }, {})).toEqual({ ok: false, error: `${CAPACITY_EXCEEDED_PREFIX}Luggage exceeded by 1` });
    expect(filterDistancePrices(list, { ...exact, hand_luggages: 9 }, {})).toEqual({ ok: false, error: `${CAPACITY_EXCEEDED_PREFIX}Hand Luggage exceeded by 1` });
  });

  it('needs each of seats, cases and hand luggage to fit, not just one', () => {
    const r = filterDistancePrices(list, { passengers: 4, luggages: 3, hand_luggages: 2 }, {});
    expect(r).toEqual({ ok: true, prices: [list[2], list[3]] });
    expect(filterDistancePrices(list, { passengers: 5, luggages: 0, hand_luggages: 0 }, {})).toEqual({ ok: true, prices: [list[2], list[3]] });
    expect(filterDistancePrices(list, { passengers: 1, luggages: 0, hand_luggages: 5 }, {})).toEqual({ ok: true, prices: [list[2]] });
  });

  it('measures against the largest vehicle: most seats, then most cases, then most hand luggage', () => {
    // Two 8-seaters: the one with more cases is the largest, whatever the order.
    const big = [p(1, 8, 2, 9, '80.00'), p(2, 8, 6, 1, '85.00'), p(3, 8, 6, 3, '86.00')];
    for (const order of [big, [...big].reverse()]) {
      expect(filterDistancePrices(order, { passengers: 8, luggages: 7, hand_luggages: 5 }, {}))
        .toEqual({ ok: false, error: `${CAPACITY_EXCEEDED_PREFIX}Luggage exceeded by 1, Hand Luggage exceeded by 2` });
    }
    expect(filterDistancePrices([], { passengers: 1, luggages: 0, hand_luggages: 0 }, {})).toEqual({ ok: true, prices: [] });
  });
});

describe('the cheapest company and the lowest price (SPEC 5, 9)', () => {
  it('keeps every company unless both settings are enable', () => {
    const all = { passengers: 1, luggages: 0, hand_luggages: 0 };
    expect(filterDistancePrices(list, all, { MULTIPLE_PRICES: 'enable' })).toEqual({ ok: true, prices: list });
    expect(filterDistancePrices(list, all, { CHEAPEST_COMPANY_PRICE: 'enable' })).toEqual({ ok: true, prices: list });
  });

  it('picks the company by its cheapest priced vehicle, never by a vehicle without a price, and keeps all when none is priced', () => {
    const withFree = [p(3, 4, 2, 2, '0.00'), ...list];
    expect(filterHourlyPrices(withFree, {}, cheapestOn)).toEqual({ ok: true, prices: [list[1], list[3]] });
    const unpriced = [p(1, 4, 2, 2, '0.00'), p(2, 4, 2, 2, '0')];
    expect(filterHourlyPrices(unpriced, {}, cheapestOn)).toEqual({ ok: true, prices: unpriced });
    // The first of two equally cheap companies.
    const tie = [p(5, 4, 2, 2, '45.00'), p(6, 4, 2, 2, '45.00')];
    expect(filterHourlyPrices(tie, {}, cheapestOn)).toEqual({ ok: true, prices: [tie[0]] });
  });

  it('gives the first of equally low prices as the lowest, and none without a price', () => {
    const tie = [p(5, 4, 2, 2, '45.00'), p(6, 4, 2, 2, '45.00'), p(7, 4, 2, 2, '0.00')];
    expect(lowestPrice(tie)).toBe(tie[0]);
    expect(lowestPrice([p(7, 4, 2, 2, '0.00')])).toBeUndefined();
    expect(lowestPrice([])).toBeUndefined();
  });
});
