// How the account area shows a booking's values (SPEC 2 'Bookings (corporate)').
import type { CorporateBooking } from '../../../domain/schemas';
import { currencyOf, isEnabled } from '../../../domain/settings';
import { formatExactPrice, formatWholePrice } from '../../../domain/money';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { useSettings } from '../../appActor';

/** SPEC 2: 'Pay to driver' for car, otherwise 'Pay by Card'. */
export const paymentMethodOf = (b: Pick<CorporateBooking, 'payment_method'>) => (b.payment_method === 'car' ? 'Pay to driver' : 'Pay by Card');

/** SPEC 2: 'Hourly Booking' when the ride type is not Q, otherwise 'Quotation'. */
export const bookingTypeOf = (b: Pick<CorporateBooking, 'ride_type'>) => (b.ride_type === 'Q' ? 'Quotation' : 'Hourly Booking');

/** dd-mm-yyyy, as the confirmation shows it. */
export const dateOf = (d: string | null | undefined) => formatDateUK(d);

/** 12-hour time, as the confirmation shows it. */
export const timeOf = (t: string | null | undefined) => formatTime12(t);

/** The amount in the operator's currency, rounded when ROUND_OFF is yes (as the confirmation shows it). */
export function useAmountFormat(): (pounds: string) => string {
  const settings = useSettings();
  const currency = currencyOf(settings);
  const round = isEnabled(settings, 'ROUND_OFF');
  return (pounds) => (round ? formatWholePrice(pounds, currency) : formatExactPrice(pounds, currency));
}
