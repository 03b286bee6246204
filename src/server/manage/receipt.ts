// A booking's receipt as a PDF (issue 27) when it has no VAT invoice: the seller's name and address, the reference,
// the journey (UK time), the itemised price, how it is paid and where that stands, all as they are now, dated with
// the moment it was made ("As at"). A paid booking's is a receipt, any other's a booking confirmation; with the
// operator's VAT_NUMBER it says it is not a VAT invoice (those, and their notes, are ./invoicePdf.ts).
// pdfkit (kept, pure JavaScript) lays out the text; its built-in Helvetica has the pound sign, so no font is embedded.
// It is loaded with the first receipt, not at start (decision 31).
import type { BookingResult } from '../../domain/schemas';
import type { Settings } from '../../domain/settings';
import { formatExactPrice } from '../../domain/money';
import { ukMoment } from '../../domain/manageRules';
import { journeyRows, sellerLines } from './invoices';
import { pdfLayout, printable } from '../http/pdf';

export { pdfLayout, printable };

export interface ReceiptInput {
  booking: BookingResult;
  settings: Settings;
  breakdown: { label: string; amount: string }[];
  /** How it is paid and where that stands, in words ('Paid by card on 12-09-2030', 'To be paid in the car'). */
  payment: string;
  /** A refund made, in words, if any. */
  refund: string | null;
  /** Paid by card, or completed when paid in the car: a receipt rather than a booking confirmation. */
  paid: boolean;
  now: Date;
}

export const NOT_A_VAT_INVOICE = 'This is not a VAT invoice. A VAT invoice is issued for a booking paid by card, or paid in the car once the journey is completed.';

export const receiptFileName = (r: ReceiptInput) => `receipt-${r.booking.booking.booking_number}.pdf`;

export async function receiptPdf(r: ReceiptInput): Promise<Buffer> {
  const s = r.settings;
  const b = r.booking.booking;
  const title = r.paid ? 'Receipt' : 'Booking confirmation';
  const pdf = await pdfLayout({ Title: `${title} ${b.booking_number}`, Author: s.Company_Name ?? '', Subject: `Booking ${b.booking_number}` });
  pdf.header(s.Company_Name || 'Receipt', sellerLines(s), null, title);
  pdf.row('Booking reference', b.booking_number);
  pdf.row('As at', `${ukMoment(r.now)} (UK time)`);
  if (s.VAT_NUMBER?.trim()) {
    pdf.doc.moveDown(0.3);
    pdf.paragraph(NOT_A_VAT_INVOICE);
  }
  pdf.doc.moveDown(0.8);

  pdf.heading('Journey');
  for (const x of journeyRows(r.booking, s)) pdf.row(x.label, x.value);
  pdf.row('Passenger', r.booking.passengerDetails.passenger_name);
  pdf.doc.moveDown(0.8);

  pdf.heading('Price');
  for (const line of r.breakdown) pdf.row(line.label, formatExactPrice(line.amount), true);
  pdf.rule();
  pdf.row('Total', formatExactPrice(b.total_booking_amount), true, true);
  pdf.doc.moveDown(0.8);
  pdf.heading('Payment');
  pdf.row('Payment', r.payment);
  if (r.refund) pdf.row('Refund', r.refund);
  pdf.doc.moveDown(1.5);
  pdf.footer(`Thank you for travelling with ${s.Company_Name || 'us'}. Keep this ${r.paid ? 'receipt' : 'confirmation'} for your records.`);
  return pdf.end();
}

