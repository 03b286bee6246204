// A booking's receipt as a PDF (issue 27), or its VAT invoice when the operator has a VAT_NUMBER: the seller's name
// and address, the reference, the date of issue, the journey (UK time), the itemised price, how it is paid and where
// that stands; an invoice adds its number (gap-free, ./invoices.ts), the VAT number, and the net, VAT and gross.
// pdfkit (kept, pure JavaScript) lays out the text; its built-in Helvetica has the pound sign, so no font is embedded.
// It is loaded with the first receipt, not at start (decision 31).
import type { BookingResult } from '../../domain/schemas';
import type { Settings } from '../../domain/settings';
import { bookingSummary } from '../../domain/bookingSummary';
import { formatExactPrice, penceToPounds, poundsToPence } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';
import { invoiceLabel, vatOf, type Invoice } from './invoices';

export interface ReceiptInput {
  booking: BookingResult;
  settings: Settings;
  breakdown: { label: string; amount: string }[];
  /** How it is paid and where that stands, in words ('Paid by card on 12-09-2030', 'To be paid in the car'). */
  payment: string;
  /** A refund made, in words, if any. */
  refund: string | null;
  invoice: Invoice | null;
  now: Date;
}

/** The characters Windows-1252 has beyond Latin-1: pdfkit's built-in fonts are encoded so. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const LOOKALIKE: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h', Ŧ: 'T', ŧ: 't', '\u2212': '-' };
const inWinAnsi = (ch: string) => (ch.codePointAt(0)! >= 0x20 && ch.codePointAt(0)! <= 0xff && !(ch.codePointAt(0)! >= 0x7f && ch.codePointAt(0)! < 0xa0)) || WIN_ANSI_EXTRA.has(ch);

/**
 * Text as the built-in fonts can print it: a character they lack loses its accent (Ł as L, ą as a) or, when it has
 * no Latin form (李, an emoji), reads '?', rather than printing as a wrong glyph.
 */
export function printable(text: string): string {
  return [...text.normalize('NFC')].map((ch) => {
    if (inWinAnsi(ch)) return ch;
    if (LOOKALIKE[ch]) return LOOKALIKE[ch];
    const bare = ch.normalize('NFD').replace(/\p{M}+/gu, '');
    return [...bare].every(inWinAnsi) && bare ? bare : '?';
  }).join('');
}

export const receiptFileName = (r: ReceiptInput) =>
  (r.invoice ? `invoice-${invoiceLabel(r.invoice.number)}.pdf` : `receipt-${r.booking.booking.booking_number}.pdf`);

export async function receiptPdf(r: ReceiptInput): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const s = r.settings;
  const b = r.booking.booking;
  const title = r.invoice ? 'VAT invoice' : 'Receipt';
  const doc = new PDFDocument({
    size: 'A4', margin: 56,
    info: { Title: `${title} ${b.booking_number}`, Author: s.Company_Name ?? '', Subject: `Booking ${b.booking_number}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const navy = '#0f2a47';
  const muted = '#5b6675';
  doc.fillColor(navy).font('Helvetica-Bold').fontSize(18).text(printable(s.Company_Name ?? 'Receipt'));
  doc.font('Helvetica').fontSize(10).fillColor(muted);
  for (const line of [s.Company_Address, [s.Company_Contact_Info, s.Company_Email].filter(Boolean).join('  |  ')]) if (line) doc.text(printable(line));
  if (r.invoice) doc.text(printable(`VAT number: ${r.invoice.vat_number}`));
  doc.moveDown(1.2);
  doc.fillColor(navy).font('Helvetica-Bold').fontSize(16).text(title);
  doc.font('Helvetica').fontSize(10).fillColor('#1b2430');
  const facts: [string, string][] = [
    ...(r.invoice ? [['Invoice number', invoiceLabel(r.invoice.number)] as [string, string]] : []),
    ['Booking reference', b.booking_number],
    ['Date of issue', formatDateUK(ukToday(r.invoice ? new Date(r.invoice.issued_at) : r.now))],
  ];
  for (const [k, v] of facts) row(k, v);
  doc.moveDown(0.8);

  // The journey and who travels: the one booking summary (src/domain/bookingSummary.ts), as the e-mail has it.
  const summary = bookingSummary(r.booking, { reader: 'email', settings: s, amount: (p) => formatExactPrice(p) });
  heading('Journey');
  for (const x of [...summary.journey.filter((x) => x.label !== 'Reference ID' && x.label !== 'Booking type'), ...summary.stops]) row(x.label, x.value);
  row('Vehicle', `${b.fleet_category.category_name}, ${b.company_name}`);
  row('Passenger', r.booking.passengerDetails.passenger_name);
  doc.moveDown(0.8);

  heading('Price');
  for (const line of r.breakdown) row(line.label, formatExactPrice(line.amount), true);
  const gross = poundsToPence(b.total_booking_amount);
  rule();
  if (r.invoice) {
    const { net, vat } = vatOf(gross, r.invoice.vat_rate);
    row('Net', formatExactPrice(penceToPounds(net)), true);
    row(`VAT at ${r.invoice.vat_rate}%`, formatExactPrice(penceToPounds(vat)), true);
    row('Total (gross)', formatExactPrice(b.total_booking_amount), true, true);
  } else {
    row('Total', formatExactPrice(b.total_booking_amount), true, true);
  }
  doc.moveDown(0.8);
  heading('Payment');
  row('Payment', r.payment);
  if (r.refund) row('Refund', r.refund);
  doc.moveDown(1.5);
  doc.fillColor(muted).fontSize(9).text(printable(`Thank you for travelling with ${s.Company_Name ?? 'us'}. Keep this ${r.invoice ? 'VAT invoice' : 'receipt'} for your records.`));
  doc.end();
  return done;

  function rule() {
    const left = doc.page.margins.left;
    doc.moveTo(left, doc.y).lineTo(doc.page.width - doc.page.margins.right, doc.y).lineWidth(0.5).strokeColor('#dde3ea').stroke();
    doc.moveDown(0.3);
  }
  function heading(text: string) {
    doc.fillColor(navy).font('Helvetica-Bold').fontSize(12).text(printable(text));
    doc.moveDown(0.2);
    doc.font('Helvetica').fontSize(10).fillColor('#1b2430');
  }
  function row(label: string, value: string, money = false, strong = false) {
    const y = doc.y;
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').text(printable(label), left, y, { width: width * 0.45 });
    const afterLabel = doc.y;
    doc.text(printable(value), left + width * 0.45, y, { width: width * 0.55, align: money ? 'right' : 'left' });
    doc.y = Math.max(afterLabel, doc.y) + 2;
    doc.x = left;
  }
}
