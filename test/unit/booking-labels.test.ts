// SPEC 2: how a booking's type, payment and amount read on the confirmation and in the corporate list.
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUS_LABELS, bookingTypeLabel, confirmationPaymentLabel, paymentMethodLabel } from '../../src/domain/bookingLabels';
import { formatBookingAmount } from '../../src/domain/settings';

describe('booking labels (SPEC 2)', () => {
  it("reads 'Quotation' only for ride type Q, 'Hourly Booking' otherwise", () => {
    expect(['Q', 'H', ''].map(bookingTypeLabel)).toEqual(['Quotation', 'Hourly Booking', 'Hourly Booking']);
  });

  it("reads 'Pay to driver' only for car, 'On account' for a booking on a company's account (issue 44), 'Pay by Card' otherwise", () => {
    expect(['car', 'card', 'account', ''].map(paymentMethodLabel)).toEqual(['Pay to driver', 'Pay by Card', 'On account', 'Pay by Card']);
  });

  it("reads 'Pay in Car' for car, 'Pay on account' for account and 'Pay by Card' for card on the confirmation and its e-mail", () => {
    expect(['car', 'card', 'account', ''].map(confirmationPaymentLabel)).toEqual(['Pay in Car', 'Pay by Card', 'Pay on account', 'Pay by Card']);
  });

  it('says where a payment stands, a booking on account as on the monthly invoice', () => {
    expect(PAYMENT_STATUS_LABELS).toEqual({
      due_in_car: 'To be paid in the car', paid: 'Paid', awaiting_payment: 'Not paid yet', pending: 'Not paid yet', refunded: 'Refunded',
      partially_refunded: 'Partly refunded', on_account: 'On the monthly invoice',
    });
  });

  it('shows the exact amount unless ROUND_OFF is yes, in the operator currency', () => {
    expect(formatBookingAmount('84.50', {})).toBe('£84.50');
    expect(formatBookingAmount('84.50', { ROUND_OFF: 'yes' })).toBe('£85');
    expect(formatBookingAmount('84.49', { ROUND_OFF: 'yes', CURRENCY: '€' })).toMatch(/^\D*84$/);
  });
});
