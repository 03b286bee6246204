// Quoting a trip: check the rules, place the addresses, measure the legs and
// price every offer. Both price endpoints and the booking call use this.
import { legExtras } from '../../domain/extras';
import { formatMiles } from '../../domain/miles';
import type { Queryable } from '../db/index';
import type { BookingForm, HourlyRateForm, PriceDetail } from '../../domain/schemas';
import { currencyOf, isEnabled, type Settings } from '../../domain/settings';
import { penceToPounds } from '../../domain/money';
import { SAME_PLACE } from '../../domain/messages';
import { sameAddressText, stopText } from '../../domain/places';
import { findPlace, isAirportAddress, UnknownPlaceError } from '../geo/places';
import { UnroutableError, type DistanceService, type Waypoint } from '../geo/distance';
import { DomainError } from '../errors';
import { reference, referenceSettings } from '../reference/referenceData';
import {
  distanceFarePence, extraLines, extraPricesFrom, hourlyFarePence, roundingLine, totalPence, type DistanceRate, type PriceLine,
} from './engine';
import { checkBanned, checkGracePeriod, checkTimeExists, pickupInstant } from './rules';

export interface QuoteContext { db: Queryable; distance: DistanceService; settings: Settings; now: Date }

/** A request's quote context: the settings as they are now, and the time now. */
export async function quoteContext(deps: { db: Queryable; distance: DistanceService; now: () => Date }): Promise<QuoteContext> {
  return { db: deps.db, distance: deps.distance, settings: await referenceSettings(deps.db), now: deps.now() };
}

export interface Offer {
  company_id: number; company_name: string; company_email: string; vehicle_id: number; vehicle_type: string; vehicle_image: string;
  max_seat: number; luggage: number; small_luggage: number; hourly_rate_pence: number; rate: DistanceRate;
}

export interface Route {
  miles: number; seconds: number; returnMiles: number; returnSeconds: number; estimated: boolean;
  /** The pickup is an airport (issue 27: free waiting after landing). */
  pickupAirport: boolean;
}

export interface PricedOffer { offer: Offer; lines: PriceLine[]; unitPence: number; detail: PriceDetail }
export interface DistanceQuote { route: Route; pickupAt: Date; offers: PricedOffer[] }
export interface HourlyQuote { hours: number; pickupAt: Date; offers: PricedOffer[]; pickupAirport: boolean }

/** The address placed (decision 23): text that cannot be placed is a 422 naming its field, whatever the distance service. */
export async function waypoint(ctx: QuoteContext, text: string, field: string): Promise<Waypoint> {
  const place = await findPlace(ctx.db, text);
  if (!place) throw new UnknownPlaceError(text, field);
  return { text, lat: place.lat, lon: place.lon, exact: place.exact, airport: place.source === 'airport' };
}

/**
 * One leg from the distance service; an unroutable place is a 422 naming its field, a service failure a 503. A leg
 * the service measured between coordinates that are only a town's or a postcode area's middle is an estimate.
 */
export async function leg(ctx: QuoteContext, from: Waypoint, to: Waypoint, fromField: string, toField: string) {
  try {
    const l = await ctx.distance.leg(from, to);
    const roughPoints = ctx.distance.needsCoordinates && !(from.exact && to.exact);
    return roughPoints ? { ...l, estimated: true } : l;
  } catch (err) {
    if (err instanceof UnroutableError) {
      const field = err.which === 'to' ? toField : fromField;
      throw new DomainError('invalid', `${err.message}. Please check "${err.which === 'to' ? to.text : from.text}".`, field);
    }
    console.error('Distance service failed:', err);
    throw new DomainError('busy', 'We cannot measure this journey right now. Please try again in a minute, or call us to book.');
  }
}

/** Decision 21: the offers cheapest first; those without a price ('Price on request') last; ties keep the operator's order. */
export function cheapestFirst(offers: PricedOffer[]): PricedOffer[] {
  const key = (o: PricedOffer) => (o.unitPence > 0 ? o.unitPence : Number.POSITIVE_INFINITY);
  return offers.map((o, i) => ({ o, i })).sort((a, b) => key(a.o) - key(b.o) || a.i - b.i).map(({ o }) => o);
}

/**
 * Decision 23: a trip with no stops from a place to the same place is refused (the same text, or the same known
 * place or airport). Two addresses only placed at the middle of one town or postcode area are not the same place.
 */
export function checkNotSamePlace(pickup: Waypoint, dropoff: Waypoint, stops: number): void {
  if (stops > 0) return;
  const samePoint = pickup.exact && dropoff.exact && pickup.lat === dropoff.lat && pickup.lon === dropoff.lon;
  if (samePoint || sameAddressText(pickup.text, dropoff.text)) throw new DomainError('invalid', SAME_PLACE, 'dropoff');
}

export async function measureRoute(ctx: QuoteContext, form: BookingForm): Promise<Route> {
  if (!form.stops.length && sameAddressText(form.pickup, form.dropoff)) throw new DomainError('invalid', SAME_PLACE, 'dropoff');
  const points: { w: Waypoint; field: string }[] = [{ w: await waypoint(ctx, form.pickup, 'pickup'), field: 'pickup' }];
  for (const [i, s] of form.stops.entries()) points.push({ w: await waypoint(ctx, stopText(s), `stops.${i}`), field: `stops.${i}` });
  points.push({ w: await waypoint(ctx, form.dropoff, 'dropoff'), field: 'dropoff' });
  checkNotSamePlace(points[0].w, points.at(-1)!.w, form.stops.length);
  const route: Route = { miles: 0, seconds: 0, returnMiles: 0, returnSeconds: 0, estimated: false, pickupAirport: points[0].w.airport === true || isAirportAddress(form.pickup) };
  for (let i = 1; i < points.length; i++) {
    const l = await leg(ctx, points[i - 1].w, points[i].w, points[i - 1].field, points[i].field);
    route.miles += l.miles;
    route.seconds += l.seconds;
    route.estimated ||= l.estimated;
  }
  if (form.select_option === 'return') {
    const back = await leg(ctx, points.at(-1)!.w, points[0].w, 'dropoff', 'pickup');
    route.returnMiles = back.miles;
    route.returnSeconds = back.seconds;
    route.estimated ||= back.estimated;
  }
  route.miles = round1(route.miles);
  route.returnMiles = round1(route.returnMiles);
  return route;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The offers of one load of the reference data, shaped once (they are read on every price call). */
const shaped = new WeakMap<object, Offer[]>();

export async function loadOffers(db: Queryable): Promise<Offer[]> {
  const ref = await reference(db);
  let offers = shaped.get(ref);
  if (!offers) {
    offers = ref.offers.map(({ base_fare_pence, minimum_fare_pence, bands, ...o }) => ({
      ...o, rate: { base_fare_pence, minimum_fare_pence, bands },
    }));
    shaped.set(ref, offers);
  }
  return offers;
}

/** The extra prices of one settings object (one load of the reference data), read once. */
const extrasBySettings = new WeakMap<Settings, ReturnType<typeof extraPricesFrom>>();
function extrasOf(settings: Settings) {
  let extras = extrasBySettings.get(settings);
  if (!extras) extrasBySettings.set(settings, (extras = extraPricesFrom(settings)));
  return extras;
}

/** A booking prices only the vehicle it books; the price calls price them all. */
export interface OnlyOffer { vehicle_id: number; company_id: number }
const offersFor = async (db: Queryable, only?: OnlyOffer) => {
  const offers = await loadOffers(db);
  return only ? offers.filter((o) => o.vehicle_id === only.vehicle_id && o.company_id === only.company_id) : offers;
};

function checkLegs(form: BookingForm, ctx: QuoteContext): Date {
  checkTimeExists(form.pickup_date, form.pickup_hour, form.pickup_min, 'pickup_hour');
  const pickupAt = pickupInstant(form.pickup_date, form.pickup_hour, form.pickup_min);
  checkGracePeriod(pickupAt, ctx.settings, ctx.now);
  if (form.select_option !== 'return') return pickupAt;
  if (!form.return_date) throw new DomainError('invalid', 'return_date is required for a return trip', 'return_date');
  if (!form.return_hour) throw new DomainError('invalid', 'return_hour is required for a return trip', 'return_hour');
  if (!form.return_min) throw new DomainError('invalid', 'return_min is required for a return trip', 'return_min');
  checkTimeExists(form.return_date, form.return_hour, form.return_min, 'return_hour');
  if (pickupInstant(form.return_date, form.return_hour, form.return_min) <= pickupAt) {
    throw new DomainError('invalid', 'return_date: the return pickup must be after the outbound pickup', 'return_date');
  }
  return pickupAt;
}

/** The price of one offer as the customer sees, books and pays it: its lines, rounded when the operator rounds (decision 21). */
function toDetail(offer: Offer, priced: PriceLine[], settings: Settings): PricedOffer {
  const currency = currencyOf(settings);
  const rounding = roundingLine(priced, isEnabled(settings, 'ROUND_OFF'));
  const lines = rounding ? [...priced, rounding] : priced;
  const unitPence = totalPence(lines);
  const price = penceToPounds(unitPence);
  return {
    offer, lines, unitPence,
    detail: {
      vehicle_id: offer.vehicle_id, company_id: offer.company_id, company_name: offer.company_name,
      vehicle_image: offer.vehicle_image, vehicle_type: offer.vehicle_type, max_seat: offer.max_seat,
      luggage: offer.luggage, small_luggage: offer.small_luggage, price, final_price: price,
      breakdown: {
        currency, final_price: price,
        lines: lines.map((l) => ({ code: l.code, leg: l.leg, label: l.label, amount: penceToPounds(l.pence) })),
      },
    },
  };
}

export async function quoteDistance(ctx: QuoteContext, form: BookingForm, only?: OnlyOffer): Promise<DistanceQuote> {
  const pickupAt = checkLegs(form, ctx);
  await checkBanned(ctx.db, [
    { field: 'pickup', text: form.pickup }, { field: 'dropoff', text: form.dropoff },
    ...form.stops.map((s, i) => ({ field: `stops.${i}`, text: stopText(s) })),
  ]);
  const route = await measureRoute(ctx, form);
  const extras = extrasOf(ctx.settings);
  // The extras are the same for every offer: worked out once.
  const outboundExtras = extraLines(legExtras(form, 'outbound'), extras, 'outbound');
  const isReturn = form.select_option === 'return';
  const returnExtras = isReturn ? extraLines(legExtras(form, 'return'), extras, 'return') : [];
  const outboundLabel = `Journey fare (${formatMiles(route.miles)})`;
  const returnLabel = `Return journey fare (${formatMiles(route.returnMiles)})`;
  const offers = (await offersFor(ctx.db, only)).map((offer) => {
    const fare = distanceFarePence(offer.rate, route.miles);
    // An operator's vehicle without a rate is offered without a price (SPEC 2's Contact Us card), extras or not.
    if (fare <= 0) return toDetail(offer, [], ctx.settings);
    const lines: PriceLine[] = [{ code: 'fare', leg: 'outbound', label: outboundLabel, pence: fare }, ...outboundExtras];
    if (isReturn) {
      lines.push({ code: 'fare', leg: 'return', label: returnLabel, pence: distanceFarePence(offer.rate, route.returnMiles) }, ...returnExtras);
    }
    return toDetail(offer, lines, ctx.settings);
  });
  return { route, pickupAt, offers: cheapestFirst(offers) };
}

export const hoursOf = (duration: string) => Number.parseInt(duration, 10);

export async function quoteHourly(ctx: QuoteContext, form: HourlyRateForm, only?: OnlyOffer): Promise<HourlyQuote> {
  checkTimeExists(form.pickup_date, form.pickup_hour, form.pickup_min, 'pickup_hour');
  const pickupAt = pickupInstant(form.pickup_date, form.pickup_hour, form.pickup_min);
  checkGracePeriod(pickupAt, ctx.settings, ctx.now);
  await checkBanned(ctx.db, [{ field: 'pickup', text: form.pickup }]);
  const pickupAirport = (await waypoint(ctx, form.pickup, 'pickup')).airport === true || isAirportAddress(form.pickup);
  const hours = hoursOf(form.pickup_duration);
  const offers = (await offersFor(ctx.db, only))
    .filter((o) => o.hourly_rate_pence > 0)
    .map((offer) => toDetail(offer, [{
      code: 'hourly', leg: 'outbound',
      label: `Hourly hire, ${hours} hours at ${penceToPounds(offer.hourly_rate_pence)} an hour`,
      pence: hourlyFarePence(offer.hourly_rate_pence, hours),
    }], ctx.settings));
  return { hours, pickupAt, offers: cheapestFirst(offers), pickupAirport };
}
