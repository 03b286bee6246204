// Quoting a trip: place the addresses, measure the legs, price every offer.
import type { Queryable } from '../db/index';
import type { BookingForm, PriceDetail } from '../../domain/schemas';
import { penceToPounds } from '../../domain/money';
import { findPlace, UnknownPlaceError, type Place } from '../geo/places';
import type { DistanceService } from '../geo/distance';
import { HttpError } from '../http';
import { legLines, totalPence, type DistanceRate, type PriceLine } from './engine';

export interface Offer {
  company_id: number; company_name: string; vehicle_id: number; vehicle_type: string; vehicle_image: string;
  max_seat: number; luggage: number; small_luggage: number; rate: DistanceRate;
}

export interface Route { miles: number; seconds: number; returnMiles: number; returnSeconds: number; estimated: boolean }

export interface DistanceQuote {
  route: Route;
  offers: { offer: Offer; lines: PriceLine[]; unitPence: number; detail: PriceDetail }[];
}

async function place(db: Queryable, text: string, field: string): Promise<Place> {
  const found = await findPlace(db, text);
  if (!found) throw new UnknownPlaceError(text, field);
  return found;
}

export async function measureRoute(db: Queryable, distance: DistanceService, form: BookingForm): Promise<Route> {
  const pickup = await place(db, form.pickup, 'pickup');
  const stops: Place[] = [];
  for (const [i, s] of form.stops.entries()) {
    stops.push(await place(db, [s.number, s.street_name, s.postcode].filter(Boolean).join(' '), `stops.${i}`));
  }
  const dropoff = await place(db, form.dropoff, 'dropoff');
  const points = [pickup, ...stops, dropoff];
  let miles = 0;
  let seconds = 0;
  for (let i = 1; i < points.length; i++) {
    const leg = await distance.leg(points[i - 1], points[i]);
    miles += leg.miles;
    seconds += leg.seconds;
  }
  let returnMiles = 0;
  let returnSeconds = 0;
  if (form.select_option === 'return') {
    const back = await distance.leg(dropoff, pickup);
    returnMiles = back.miles;
    returnSeconds = back.seconds;
  }
  return { miles: round1(miles), seconds, returnMiles: round1(returnMiles), returnSeconds, estimated: distance.estimated };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export async function loadOffers(db: Queryable): Promise<Offer[]> {
  const rows = await db.query<Omit<Offer, 'rate'> & { base_fare_pence: number; minimum_fare_pence: number }>(
    `SELECT c.id AS company_id, c.company_name, v.id AS vehicle_id, v.category_name AS vehicle_type,
            v.image AS vehicle_image, v.seats AS max_seat, v.luggage, v.hand_luggage AS small_luggage,
            r.base_fare_pence, r.minimum_fare_pence
       FROM vehicle_rates r
       JOIN companies c ON c.id = r.company_id AND c.active
       JOIN vehicle_types v ON v.id = r.vehicle_type_id
      ORDER BY v.sort_order, v.id, c.company_name`,
  );
  const bands = await db.query<{ company_id: number; vehicle_type_id: number; from_miles: number; per_mile_pence: number }>(
    'SELECT company_id, vehicle_type_id, from_miles, per_mile_pence FROM vehicle_rate_bands ORDER BY from_miles',
  );
  return rows.map(({ base_fare_pence, minimum_fare_pence, ...o }) => ({
    ...o,
    rate: {
      base_fare_pence, minimum_fare_pence,
      bands: bands.filter((b) => b.company_id === o.company_id && b.vehicle_type_id === o.vehicle_id),
    },
  }));
}

export function checkReturnLeg(form: BookingForm): void {
  if (form.select_option !== 'return') return;
  if (!form.return_date) throw new HttpError(422, 'return_date is required for a return trip', 'return_date');
  if (!form.return_hour) throw new HttpError(422, 'return_hour is required for a return trip', 'return_hour');
  if (!form.return_min) throw new HttpError(422, 'return_min is required for a return trip', 'return_min');
}

export async function quoteDistance(db: Queryable, distance: DistanceService, form: BookingForm, currency: string): Promise<DistanceQuote> {
  checkReturnLeg(form);
  const route = await measureRoute(db, distance, form);
  const offers = await loadOffers(db);
  return {
    route,
    offers: offers.map((offer) => {
      const lines = legLines(offer.rate, route.miles, 'Journey fare');
      if (form.select_option === 'return') lines.push(...legLines(offer.rate, route.returnMiles, 'Return journey fare'));
      const unitPence = totalPence(lines);
      const price = penceToPounds(unitPence);
      const detail: PriceDetail = {
        vehicle_id: offer.vehicle_id, company_id: offer.company_id, company_name: offer.company_name,
        vehicle_image: offer.vehicle_image, vehicle_type: offer.vehicle_type, max_seat: offer.max_seat,
        luggage: offer.luggage, small_luggage: offer.small_luggage, price, final_price: price,
        breakdown: { currency, final_price: price, lines: lines.map((l) => ({ label: l.label, amount: penceToPounds(l.pence) })) },
      };
      return { offer, lines, unitPence, detail };
    }),
  };
}
