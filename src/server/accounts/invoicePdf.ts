// An account's monthly invoice as a PDF (issue 44 §3), in the receipts' layout, printed only from what was stored
// when it was issued (accounts/invoiceRun.ts): the seller, the account, one line per journey with its date, reference,
// passenger, route, vehicle and the account's fields; net, VAT and gross; the credit and debit notes carried onto it
// and what it asks to be paid. Its creation date is the issue date, so the same invoice is the same bytes.
import { formatExactPrice, penceToPounds } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';
import { monthLabel } from '../../domain/accounts';
import { invoiceLabel, noteLabel } from '../payments/invoices';
import { pdfLayout } from '../http/pdf';
import type { AccountInvoice, CarriedNote } from './invoiceRun';

const money = (pence: number) => formatExactPrice(penceToPounds(pence));
const dateOf = (at: Date) => formatDateUK(ukToday(new Date(at)));
const noteTitle = (n: Pick<CarriedNote, 'kind'>) => (n.kind === 'credit' ? 'Credit note' : 'Debit note');

export const accountInvoiceFileName = (inv: Pick<AccountInvoice, 'number'>) => `invoice-${invoiceLabel(inv.number)}.pdf`;

export async function accountInvoicePdf(inv: AccountInvoice): Promise<Buffer> {
  const vat = inv.vat_number !== '';
  const title = vat ? 'VAT invoice' : 'Invoice';
  const pdf = await pdfLayout({ Title: `${title} ${invoiceLabel(inv.number)}`, Author: inv.seller.name, Subject: `${inv.buyer.name}, ${monthLabel(inv.period_start)}` },
    new Date(inv.issued_at));
  pdf.header(inv.seller.name || title, inv.seller.lines, vat ? inv.vat_number : null, title);
  pdf.row('Invoice number', invoiceLabel(inv.number));
  pdf.row('Date of issue', dateOf(inv.issued_at));
  pdf.row('For the journeys of', monthLabel(inv.period_start));
  pdf.row('Customer', [inv.buyer.name, ...inv.buyer.lines].join(', '));
  if (inv.buyer.vat_number) pdf.row("Customer's VAT number", inv.buyer.vat_number);
  pdf.row('Payment terms', `Due by ${formatDateUK(inv.due_on)}`);
  if (!vat) {
    pdf.doc.moveDown(0.3);
    pdf.paragraph('No VAT is charged: the operator is not registered for VAT.');
  }
  pdf.doc.moveDown(0.8);

  pdf.heading(`Journeys (${inv.lines.length})${vat ? ', prices including VAT' : ''}`);
  for (const l of inv.lines) {
    pdf.row(`${l.date}  ${l.booking_number}`, money(l.pence), true, true);
    pdf.row('Passenger', l.passenger || '-');
    pdf.row('Route', l.route);
    pdf.row('Vehicle', l.vehicle);
    for (const f of l.fields) pdf.row(f.label, f.value);
    pdf.doc.moveDown(0.3);
  }
  pdf.rule();
  pdf.row('Net', money(inv.net_pence), true);
  pdf.row(`VAT at ${inv.vat_rate}%`, money(inv.vat_pence), true);
  pdf.row('Invoice total (gross)', money(inv.gross_pence), true, true);

  if (inv.carried.length) {
    pdf.doc.moveDown(0.8);
    pdf.heading('Credit and debit notes since your last invoice');
    for (const n of inv.carried) {
      pdf.row(`${noteTitle(n)} ${noteLabel(n)} of ${dateOf(n.issued_at)}, on ${invoiceLabel(n.invoice_number)}: ${n.description}`,
        money(n.kind === 'credit' ? -n.gross_pence : n.gross_pence), true);
    }
    pdf.rule();
  }
  pdf.row('Amount due', money(inv.amount_due_pence), true, true);
  pdf.doc.moveDown(1.5);
  pdf.footer(`Please pay by ${formatDateUK(inv.due_on)}, quoting ${invoiceLabel(inv.number)}. Thank you for travelling with ${inv.seller.name || 'us'}.`);
  return pdf.end();
}

/** A credit or debit note on an account's invoice, naming the invoice and the journey it corrects. */
export async function accountNotePdf(inv: AccountInvoice, n: CarriedNote): Promise<Buffer> {
  const title = noteTitle(n);
  const pdf = await pdfLayout({ Title: `${title} ${noteLabel(n)}`, Author: inv.seller.name, Subject: `${inv.buyer.name}, ${n.booking_number}` },
    new Date(n.issued_at));
  pdf.header(inv.seller.name || title, inv.seller.lines, inv.vat_number || null, title);
  pdf.row(`${title} number`, noteLabel(n));
  pdf.row('Date of issue', dateOf(n.issued_at));
  pdf.row('Corrects invoice', `${invoiceLabel(inv.number)} of ${dateOf(inv.issued_at)}`);
  pdf.row('Journey', n.booking_number);
  pdf.row('Customer', inv.buyer.name);
  pdf.doc.moveDown(0.8);
  pdf.row(n.description, money(n.gross_pence), true);
  pdf.rule();
  pdf.row('Net', money(n.net_pence), true);
  pdf.row(`VAT at ${n.vat_rate}%`, money(n.vat_pence), true);
  pdf.row(n.kind === 'credit' ? 'Total credited (gross)' : 'Total charged (gross)', money(n.gross_pence), true, true);
  pdf.doc.moveDown(1.5);
  pdf.footer('It is carried onto your next invoice and its amount due.');
  return pdf.end();
}

export const accountNoteFileName = (n: Pick<CarriedNote, 'kind' | 'number'>) => `${n.kind}-note-${noteLabel(n)}.pdf`;
