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
