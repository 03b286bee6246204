// SPEC 2: how a booking's type, payment and amount read on the confirmation and in the corporate list.
import { describe, expect, it } from 'vitest';
import { bookingTypeLabel, confirmationPaymentLabel, paymentMethodLabel } from '../../src/domain/bookingLabels';
import { formatBookingAmount } from '../../src/domain/settings';

describe('booking labels (SPEC 2)', () => {
  it("reads 'Quotation' only for ride type Q, 'Hourly Booking' otherwise", () => {
    expect(['Q', 'H', ''].map(bookingTypeLabel)).toEqual(['Quotation', 'Hourly Booking', 'Hourly Booking']);
  });

  it("reads 'Pay to driver' only for car, 'Pay by Card' otherwise", () => {
    expect(['car', 'card', ''].map(paymentMethodLabel)).toEqual(['Pay to driver', 'Pay by Card', 'Pay by Card']);
  });

  it("reads 'Pay in Car' for car and 'Pay by Card' for card on the confirmation and its e-mail", () => {
    expect(['car', 'card'].map(confirmationPaymentLabel)).toEqual(['Pay in Car', 'Pay by Card']);
  });

  it('shows the exact amount unless ROUND_OFF is yes, in the operator currency', () => {
    expect(formatBookingAmount('84.50', {})).toBe('£84.50');
    expect(formatBookingAmount('84.50', { ROUND_OFF: 'yes' })).toBe('£85');
    expect(formatBookingAmount('84.49', { ROUND_OFF: 'yes', CURRENCY: '€' })).toMatch(/^\D*84$/);
  });
});
