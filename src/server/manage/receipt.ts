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

const NAVY = '#0f2a47';
const MUTED = '#5b6675';

/**
 * An A4 document with the receipts' layout: a header, headings, label and value rows (money right-aligned), rules.
 * `created` fixes the file's creation date (an issued invoice's date), so the same document is the same bytes.
 */
export async function pdfLayout(info: { Title: string; Author: string; Subject: string }, created?: Date) {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { ...info, ...(created ? { CreationDate: created } : {}) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const body = () => doc.font('Helvetica').fontSize(10).fillColor('#1b2430');

  const layout = {
    doc,
    /** The seller's name and lines, its VAT number if any, and the document's title. */
    header(name: string, lines: string[], vatNumber: string | null, title: string) {
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(18).text(printable(name));
      doc.font('Helvetica').fontSize(10).fillColor(MUTED);
      for (const line of lines) if (line) doc.text(printable(line));
      if (vatNumber) doc.text(printable(`VAT number: ${vatNumber}`));
      doc.moveDown(1.2);
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(16).text(printable(title));
      body();
    },
    heading(text: string) {
      doc.fillColor(NAVY).font('Helvetica-Bold').fontSize(12).text(printable(text));
      doc.moveDown(0.2);
      body();
    },
    row(label: string, value: string, money = false, strong = false) {
      const y = doc.y;
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').text(printable(label), left, y, { width: width * 0.45 });
      const afterLabel = doc.y;
      doc.text(printable(value), left + width * 0.45, y, { width: width * 0.55, align: money ? 'right' : 'left' });
      doc.y = Math.max(afterLabel, doc.y) + 2;
      doc.x = left;
    },
    rule() {
      const left = doc.page.margins.left;
      doc.moveTo(left, doc.y).lineTo(doc.page.width - doc.page.margins.right, doc.y).lineWidth(0.5).strokeColor('#dde3ea').stroke();
      doc.moveDown(0.3);
    },
    paragraph(text: string) {
      doc.font('Helvetica-Bold').text(printable(text));
      body();
    },
    footer(text: string) {
      doc.fillColor(MUTED).fontSize(9).text(printable(text));
    },
    end(): Promise<Buffer> {
      doc.end();
      return done;
    },
  };
  return layout;
}
