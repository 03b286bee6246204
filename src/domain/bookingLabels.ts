// How a booking's type and payment read, wherever a booking is shown (SPEC 2 'Confirmation' and 'Bookings (corporate)').

/** 'Hourly Booking' when the ride type is not Q, otherwise 'Quotation'. */
export const bookingTypeLabel = (rideType: string) => (rideType === 'Q' ? 'Quotation' : 'Hourly Booking');

/** The corporate list: 'Pay to driver' for car, otherwise 'Pay by Card'. */
export const paymentMethodLabel = (method: string) => (method === 'car' ? 'Pay to driver' : 'Pay by Card');
