// How a booking's type and payment read, wherever a booking is shown (SPEC 2 'Confirmation' and 'Bookings (corporate)').

/** 'Hourly Booking' when the ride type is not Q, otherwise 'Quotation'. */
export const bookingTypeLabel = (rideType: string) => (rideType === 'Q' ? 'Quotation' : 'Hourly Booking');

/** The corporate list: 'Pay to driver' for car, otherwise 'Pay by Card'. */
export const paymentMethodLabel = (method: string) => (method === 'car' ? 'Pay to driver' : method === 'account' ? 'On account' : 'Pay by Card');

/** The confirmation page and e-mail: car is displayed as 'Pay in Car' (SPEC 2), a card booking as 'Pay by Card'. */
export const confirmationPaymentLabel = (method: string) => (method === 'car' ? 'Pay in Car' : method === 'account' ? 'Pay on account' : 'Pay by Card');

/** Where a booking's payment stands, in words (the office's console and the passenger's manage page). */
export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  due_in_car: 'To be paid in the car', paid: 'Paid', awaiting_payment: 'Not paid yet', pending: 'Not paid yet', refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  // Issue 44: paid on a company's account, on its monthly invoice.
  on_account: 'On the monthly invoice',
};
