// A visit's stored data made real (test/paths/storage.ts writes it into the page): the model input's trip two weeks
// ahead, the server's prices for it, a real account or booking.
import type { StoredBooking } from '../../machines/booking';
import type { BookingResponse } from '../../src/domain/schemas';
import { registration } from '../machine/fixtures';
import { firstPriced, newAccount, pricesFor, trip, uniqueEmail } from './data';
import type { PathPage } from './pathRunner';

export async function realStorage(p: PathPage, stored: StoredBooking): Promise<StoredBooking> {
  const real: StoredBooking = { ...stored };
  const form = trip();
  if (stored.bookingForm) real.bookingForm = form;
  const prices = stored.priceDetails || stored.selectedVehicle || stored.booking ? await pricesFor(p.server, form) : [];
  if (stored.priceDetails) real.priceDetails = prices;
  if (stored.selectedVehicle) real.selectedVehicle = firstPriced(prices);
  if (stored.registration) {
    // A client's e-mail is an account's; a guest's is new.
    if (stored.registrationMode === 'existing_client') p.data.account = await newAccount(p.server);
    real.registration = { ...registration, email: p.data.account?.email ?? uniqueEmail('guest') };
  }
  if (stored.booking) {
    const made = await p.server.call<BookingResponse>('POST', '/booking', {
      selectedVehicleData: firstPriced(prices), bookingType: 'milleage', bookingForm: form, payment_method: 'car',
      selected_passenger: 'guest_login', registrationData: { ...registration, email: uniqueEmail('confirmed') },
    });
    real.booking = made.data!;
  }
  delete real.attempt;
  return real;
}

