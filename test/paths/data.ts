// Real data for the paths, made through the API as the site makes it: a trip in the future, its prices, a
// passenger account (made, as on the site, by booking as a new client), a signed-in session.
import { randomUUID } from 'node:crypto';
import type { BookingForm, PriceDetail, PriceResponse, RegistrationData, BookingResponse } from '../../src/domain/schemas';
import type { Session } from '../../machines/account';
import { ukDateInDays } from '../e2e/harness';
import { bookingForm, registration } from '../machine/fixtures';
import type { PathServer } from './server';

/** The model's trip, two weeks ahead. */
export const trip = (): BookingForm => ({ ...bookingForm, pickup_date: ukDateInDays(14) });

export async function pricesFor(server: PathServer, form: BookingForm = trip()): Promise<PriceDetail[]> {
  const res = await server.call<PriceResponse>('POST', '/calculate-distance-price', form);
  return res.price_details;
}

/** The cheapest priced offer (the first: offers come cheapest first). */
export const firstPriced = (prices: PriceDetail[]) => prices.find((p) => Number(p.price) > 0)!;

export const uniqueEmail = (who = 'path') => `${who}-${randomUUID().slice(0, 8)}@example.com`;

export interface Account { email: string; password: string; registration: RegistrationData }

/** A passenger account, made as the site makes one: a booking as a new client with a password. */
export async function newAccount(server: PathServer, email = uniqueEmail()): Promise<Account> {
  const form = trip();
  const prices = await pricesFor(server, form);
  const password = 'secret-1';
  const reg: RegistrationData = { ...registration, email, password, privacyAccepted: true, termsAccepted: true };
  const made = await server.call<BookingResponse>('POST', '/booking', {
    selectedVehicleData: firstPriced(prices), bookingType: 'milleage', bookingForm: form, payment_method: 'car',
    selected_passenger: 'new_client', registrationData: reg,
  });
  if (!made.success) throw new Error(`could not make an account: ${made.message}`);
  return { email, password, registration: reg };
}

/** A signed-in session, as the sign-in page stores it. */
export async function signIn(server: PathServer, email: string, password: string): Promise<Session> {
  const res = await server.call<{ access_token: string; passenger: Session['passenger'] }>('POST', '/check-passenger-login', { email, password });
  return { token: res.access_token, passenger: res.passenger };
}
