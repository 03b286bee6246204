// A booking on its way to the database: the request priced and its passenger known (bookings.ts prepares it), and how
// it is written (./queries.ts writes it).
import type { BookingDetail, BookingForm } from '../../domain/schemas';
import type { BookingRequest } from '../../domain/requestSchemas';
import type { ExtraDetailKey } from '../../domain/extras';
import type { PricedOffer } from '../pricing/quote';
import type { Taken, Use } from '../limits';
import type { BookedVia } from '../../domain/bookingRecords';

/** The trip as the server priced it, in the columns it is stored in. */
export interface Trip {
  rideType: 'Q' | 'H'; chosen: PricedOffer; pickupAt: Date; pickup: string; dropoff: string | null; date: string; time: string;
  returnDate: string | null; returnTime: string | null; hourlyDuration: string | null; flightNo: string | null;
  returnFlightNo: string | null; miles: number | null; returnMiles: number | null; seconds: number | null;
  details: Pick<BookingDetail, ExtraDetailKey> & { luggages: number; hand_luggages: number; return_options: unknown; passengers: number };
  stops: BookingForm['stops'];
  /** The pickup is an airport: the free waiting is counted from the landing (issue 27). */
  pickupAirport: boolean;
}

/** Who the booking is for. */
export interface Contact {
  passengerId: number | null; name: string; email: string; phone: string; passwordHash: string | null;
  /** Booking for someone else: their phone as stored, '' when not given. */
  passengerPhone: string;
}

/**
 * A request checked against the settings, priced by the server, and its passenger known: ready to be written. `taken`
 * is what preparing it counted against the allowances, given back if it is then not written; `toCount` what the
 * booking's statement counts itself (issue 40).
 */
export interface PreparedBooking { req: BookingRequest; trip: Trip; contact: Contact; taken: Taken; toCount: Use[] }

export interface WriteOptions {
  idempotencyKey: string | null; hash: string;
  /** 'pending': a card booking waiting for its payment; its confirmation e-mail is held until then. */
  status: 'confirmed' | 'pending';
  paymentMethod: 'car' | 'card' | 'account'; paymentStatus: 'due_in_car' | 'awaiting_payment' | 'on_account';
  /** Paid on account (issue 44): the account billed, and its fields' values as the booking keeps them. */
  account?: { id: number; name: string; fields: { label: string; value: string }[] } | null;
  /** How it was taken (issue 43): online, by a signed-in corporate passenger, or by the office on the phone ('web' when absent). */
  bookedVia?: BookedVia;
  /** Who in the office took it by phone. */
  bookedBy?: { id: number; name: string } | null;
  /**
   * A price the office set by hand (issue 43): the site's own price of the booking and why it was changed. The trip's
   * offer already carries the price set, with a line saying so (operator/phoneBookings.ts).
   */
  priceOverride?: { quotedPence: number; reason: string } | null;
}
