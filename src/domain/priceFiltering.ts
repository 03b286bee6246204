// SPEC 5 'Distance price filtering' and SPEC 8's capacity and missing-form messages.
import type { PriceDetail } from './schemas';
import { isEnabled, type Settings } from './settings';
import { poundsToPence } from './money';

export interface Requested { passengers: number; luggages: number; hand_luggages: number }

export const CAPACITY_EXCEEDED_PREFIX =
  "Sorry we don't have any vehicle with requested options, the following limits are exceeded: ";
export const BOOKING_FORM_MISSING = 'BookingForm data is missing.';
export const HOURLY_FORM_MISSING = 'HourlyRateForm data is missing.';

export type FilterResult = { ok: true; prices: PriceDetail[] } | { ok: false; error: string };

/** The largest vehicle: highest seats, then luggage, then hand luggage. */
export function largestVehicle(prices: PriceDetail[]): PriceDetail | undefined {
  return [...prices].sort((a, b) => b.max_seat - a.max_seat || b.luggage - a.luggage || b.small_luggage - a.small_luggage)[0];
}

export function capacityExceeded(prices: PriceDetail[], req: Requested): string | null {
  const largest = largestVehicle(prices);
  if (!largest) return null;
  const parts: string[] = [];
  if (req.passengers > largest.max_seat) parts.push(`Passengers exceeded by ${req.passengers - largest.max_seat}`);
  if (req.luggages > largest.luggage) parts.push(`Luggage exceeded by ${req.luggages - largest.luggage}`);
  if (req.hand_luggages > largest.small_luggage) parts.push(`Hand Luggage exceeded by ${req.hand_luggages - largest.small_luggage}`);
  return parts.length ? CAPACITY_EXCEEDED_PREFIX + parts.join(', ') : null;
}

export function fits(p: PriceDetail, req: Requested): boolean {
  return p.max_seat >= req.passengers && p.luggage >= req.luggages && p.small_luggage >= req.hand_luggages;
}

/** MULTIPLE_PRICES and CHEAPEST_COMPANY_PRICE both enable: keep only the company with the cheapest option. */
export function keepCheapestCompany(prices: PriceDetail[], settings: Settings): PriceDetail[] {
  if (!isEnabled(settings, 'MULTIPLE_PRICES') || !isEnabled(settings, 'CHEAPEST_COMPANY_PRICE') || prices.length === 0) {
    return prices;
  }
  const priced = prices.filter((p) => poundsToPence(p.price) > 0);
  if (priced.length === 0) return prices;
  const cheapest = priced.reduce((a, b) => (poundsToPence(b.price) < poundsToPence(a.price) ? b : a));
  return prices.filter((p) => p.company_id === cheapest.company_id);
}

export function filterDistancePrices(
  prices: PriceDetail[], form: Requested | null | undefined, settings: Settings,
): FilterResult {
  if (!form) return { ok: false, error: BOOKING_FORM_MISSING };
  const exceeded = capacityExceeded(prices, form);
  if (exceeded) return { ok: false, error: exceeded };
  return { ok: true, prices: keepCheapestCompany(prices.filter((p) => fits(p, form)), settings) };
}

export function filterHourlyPrices(prices: PriceDetail[], form: object | null | undefined, settings: Settings): FilterResult {
  if (!form) return { ok: false, error: HOURLY_FORM_MISSING };
  return { ok: true, prices: keepCheapestCompany(prices, settings) };
}

/** SPEC 9: the lowest price is the smallest price among results. */
export function lowestPrice(prices: PriceDetail[]): PriceDetail | undefined {
  const priced = prices.filter((p) => poundsToPence(p.price) > 0);
  return priced.reduce<PriceDetail | undefined>((a, b) => (!a || poundsToPence(b.price) < poundsToPence(a.price) ? b : a), undefined);
}
