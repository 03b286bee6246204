// A VAT invoice and its credit and debit notes as PDFs (issue 39, decision 48), printed only from what was stored when
// each was issued (payments/invoices.ts): its seller, buyer, journey, lines, net, VAT and gross, at its own rate and
// date. Nothing is read from the booking or the settings as they are now, so a download shows what was issued. The
// invoice lists its notes and what it comes to after them; a note names the invoice it corrects.
import { formatExactPrice, penceToPounds } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';
import { invoiceLabel, noteLabel, type Invoice, type Note } from '../payments/invoices';
import { pdfLayout } from './receipt';

const money = (pence: number) => formatExactPrice(penceToPounds(pence));
const dateOf = (at: Date) => formatDateUK(ukToday(new Date(at)));
const noteTitle = (n: Note) => (n.kind === 'credit' ? 'Credit note' : 'Debit note');
/** A note's amount as it moves the invoice: less for a credit note. */
const signed = (n: Note) => (n.kind === 'credit' ? -n.gross_pence : n.gross_pence);

export const invoiceFileName = (inv: Invoice) => `invoice-${invoiceLabel(inv.number)}.pdf`;
export const noteFileName = (n: Note) => `${n.kind}-note-${noteLabel(n)}.pdf`;

export async function invoicePdf(inv: Invoice, notes: Note[]): Promise<Buffer> {
  const pdf = await pdfLayout({ Title: `VAT invoice ${invoiceLabel(inv.number)}`, Author: inv.seller.name, Subject: `Booking ${inv.booking_number}` },
    new Date(inv.issued_at));
  pdf.header(inv.seller.name || 'VAT invoice', inv.seller.lines, inv.vat_number, 'VAT invoice');
  pdf.row('Invoice number', invoiceLabel(inv.number));
  pdf.row('Date of issue', dateOf(inv.issued_at));
  pdf.row('Booking reference', inv.booking_number);
  pdf.row('Customer', inv.buyer.name);
  pdf.doc.moveDown(0.8);

  pdf.heading('Journey');
  for (const x of inv.journey) pdf.row(x.label, x.value);
  pdf.doc.moveDown(0.8);

  pdf.heading('Price (including VAT)');
  for (const line of inv.lines) pdf.row(line.description, money(line.pence), true);
  pdf.rule();
  pdf.row('Net', money(inv.net_pence), true);
  pdf.row(`VAT at ${inv.vat_rate}%`, money(inv.vat_pence), true);
  pdf.row('Total (gross)', money(inv.gross_pence), true, true);
  pdf.doc.moveDown(0.8);
  pdf.heading('Payment');
  pdf.row('Payment', inv.payment);

  if (notes.length) {
    pdf.doc.moveDown(0.8);
    pdf.heading('Credit and debit notes');
    for (const n of notes) pdf.row(`${noteTitle(n)} ${noteLabel(n)} of ${dateOf(n.issued_at)}`, money(signed(n)), true);
    pdf.rule();
    pdf.row('Total after notes', money(inv.gross_pence + notes.reduce((sum, n) => sum + signed(n), 0)), true, true);
  }
  pdf.doc.moveDown(1.5);
  pdf.footer(`Thank you for travelling with ${inv.seller.name || 'us'}. Keep this VAT invoice for your records.`);
  return pdf.end();
}

export async function notePdf(inv: Invoice, n: Note): Promise<Buffer> {
  const title = noteTitle(n);
  const pdf = await pdfLayout({ Title: `${title} ${noteLabel(n)}`, Author: inv.seller.name, Subject: `Booking ${inv.booking_number}` },
    new Date(n.issued_at));
  pdf.header(inv.seller.name || title, inv.seller.lines, inv.vat_number, title);
  pdf.row(`${title} number`, noteLabel(n));
  pdf.row('Date of issue', dateOf(n.issued_at));
  pdf.row('For VAT invoice', `${invoiceLabel(inv.number)} of ${dateOf(inv.issued_at)}`);
  pdf.row('Booking reference', inv.booking_number);
  pdf.row('Customer', inv.buyer.name);
  pdf.doc.moveDown(0.8);

  pdf.heading(n.kind === 'credit' ? 'Amount credited (including VAT)' : 'Amount charged (including VAT)');
  for (const line of n.lines) pdf.row(line.description, money(line.pence), true);
  pdf.rule();
  pdf.row('Net', money(n.net_pence), true);
  pdf.row(`VAT at ${n.vat_rate}%`, money(n.vat_pence), true);
  pdf.row('Total (gross)', money(n.gross_pence), true, true);
  pdf.doc.moveDown(1.5);
  pdf.footer(`This ${title.toLowerCase()} ${n.kind === 'credit' ? 'reduces' : 'adds to'} VAT invoice ${invoiceLabel(inv.number)} by ${money(n.gross_pence)}.`);
  return pdf.end();
}
