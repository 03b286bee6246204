// What the flight tests share (flights.test.ts, flight-watcher.test.ts, flights-two-processes.test.ts): a guest
// booking paid in the car from Heathrow T5 with a flight number.
import { expect } from 'vitest';
import type { testApp } from './setup';

type TestApp = Awaited<ReturnType<typeof testApp>>;

let n = 0;
/** A guest booking paid in the car from Heathrow T5 at 07:15 (or `time`) with a flight number; its manage key too. */
export async function bookFlight(t: TestApp, date: string, flight: string, time = { pickup_hour: '7am', pickup_min: '15' }) {
  t.clock.now = new Date();
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: date, ...time, passengers: 2, luggages: 1, pickup_fight_number: flight,
  };
  const prices = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: prices.body.price_details.find((p: any) => p.company_name === 'Albion Executive Cars' && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Ada', surname: `Flyer${++n}`, number: '07700 900456', email: `ada.${process.pid}.${n}.${Date.now()}@example.com` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...(res.body.data.booking as { id: number; booking_number: string }), key: res.body.data.manage_key as string };
}
