// A booker's calls for their company's account (issue 44): its terms for the payment step, its invoices and their
// PDFs, and the booker's own journeys filtered by date and field, as a list and as CSV. Each needs the booker's token;
// a booker reaches only their own account's invoices (another's is not found).
import { Hono, type Context } from 'hono';
import { DomainError } from '../errors';
import { requirePassenger } from '../auth/tokens';
import { toCsv } from '../http/csv';
import { INVOICE_STATUS_LABELS, invoiceStatus, monthLabel } from '../../domain/accounts';
import { penceToPounds } from '../../domain/money';
import { ukToday } from '../../domain/ukTime';
import { journeyFilterProblem } from '../../domain/expenses';
import { invoiceLabel, noteLabel } from '../payments/invoices';
import type { AppEnv } from '../deps';
import type { Queryable } from '../db/index';
import { billingOf } from './billing';
import { accountInvoice, accountInvoices, type AccountInvoice } from './invoiceRun';
import { accountInvoiceFileName, accountInvoicePdf, accountNoteFileName, accountNotePdf } from './invoicePdf';
import { accountOfBooker } from './store';
import { journeysOf, JOURNEY_COLUMNS, type JourneyFilter } from './journeys';

/** An invoice as the lists show it (the booker's Invoices, the console's): no lines, its status on `today`. */
export function invoiceSummary(i: AccountInvoice, today: string) {
  const status = invoiceStatus(i, today);
  return {
    number: i.number, label: invoiceLabel(i.number), account_id: i.account_id, account_name: i.account_name,
    month: monthLabel(i.period_start), period_start: i.period_start, issued_on: ukToday(new Date(i.issued_at)), due_on: i.due_on,
    paid_on: i.paid_on, paid_by: i.paid_by, status, status_label: INVOICE_STATUS_LABELS[status], journeys: i.lines.length,
    gross: penceToPounds(i.gross_pence), amount_due: penceToPounds(i.amount_due_pence),
    notes: [...i.carried.map((n) => ({ ...n, carried: true })), ...i.notes.map((n) => ({ ...n, carried: false }))]
      .map((n) => ({ label: noteLabel(n), kind: n.kind, invoice: invoiceLabel(n.invoice_number), booking_number: n.booking_number, amount: penceToPounds(n.gross_pence), carried: n.carried })),
  };
}

/** INV-000012, CN-000003 or DN-000001 as its kind and number; null when it is none of them. */
export function documentOf(label: string): { kind: 'invoice' | 'credit' | 'debit'; number: number } | null {
  const m = /^(INV|CN|DN)-(\d{1,9})$/.exec(label.trim().toUpperCase());
  if (!m) return null;
  return { kind: m[1] === 'INV' ? 'invoice' : m[1] === 'CN' ? 'credit' : 'debit', number: Number(m[2]) };
}

/** The PDF of one of these invoices' documents (the invoice or a note on it), or a 404. */
export async function documentPdf(q: Queryable, label: string, where: { accountId?: number; scope?: number | null }) {
  const doc = documentOf(label);
  if (!doc) throw new DomainError('invalid', 'document is an invoice or note number, like INV-000012 or CN-000003.', 'document');
  if (doc.kind === 'invoice') {
    const inv = await accountInvoice(q, doc.number, where);
    if (!inv) throw new DomainError('notFound', 'No such invoice of your account.');
    return { pdf: await accountInvoicePdf(inv), fileName: accountInvoiceFileName(inv) };
  }
  const [row] = await q.query<{ invoice_number: number }>('SELECT invoice_number FROM invoice_notes WHERE kind = $1 AND number = $2', [doc.kind, doc.number]);
  const inv = row ? await accountInvoice(q, row.invoice_number, where) : null;
  const note = inv?.notes.find((n) => n.kind === doc.kind && n.number === doc.number);
  if (!inv || !note) throw new DomainError('notFound', 'No such note of your account.');
  return { pdf: await accountNotePdf(inv, note), fileName: accountNoteFileName(note) };
}

/** The journeys filter of a request: from and to (UK dates, both optional), a field's label and a value in it. */
function filterOf(c: Context): JourneyFilter {
  const asked = { from: c.req.query('from') ?? '', to: c.req.query('to') ?? '', field: c.req.query('field') ?? '', value: c.req.query('value') ?? '' };
  // The page's own rule (src/domain/expenses.ts), in its words, on its field.
  const problem = journeyFilterProblem(asked);
  if (problem) throw new DomainError('invalid', problem.message, problem.field);
  const given = (v: string, max: number) => v.trim().slice(0, max) || null;
  return { from: given(asked.from, 10), to: given(asked.to, 10), field: given(asked.field, 40), value: given(asked.value, 60) };
}

async function bookerAccount(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const me = await requirePassenger(c, db);
  const account = await accountOfBooker(db, me);
  return { me, account };
}

export const bookerRoutes = new Hono<AppEnv>()
  // The payment step's "Pay on account": the account's name, whether it may be used (and why not) and its fields.
  .get('/account/billing', async (c) => {
    const { db } = c.var.deps;
    const me = await requirePassenger(c, db);
    return c.json({ account: await billingOf(db, me) });
  })
  .get('/account/invoices', async (c) => {
    const { account } = await bookerAccount(c);
    if (!account) return c.json({ account: null, invoices: [] });
    const today = ukToday(c.var.deps.now());
    const invoices = await accountInvoices(c.var.deps.db, { accountId: account.id });
    // The office's staff are not named to the company's bookers.
    return c.json({ account: { name: account.name }, invoices: invoices.map((i) => ({ ...invoiceSummary(i, today), paid_by: null })) });
  })
  .get('/account/invoices/:document', async (c) => {
    const { account } = await bookerAccount(c);
    if (!account) throw new DomainError('notFound', 'Your sign-in belongs to no company account.');
    const { pdf, fileName } = await documentPdf(c.var.deps.db, c.req.param('document'), { accountId: account.id });
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `attachment; filename="${fileName}"`);
    return c.body(new Uint8Array(pdf));
  })
  // The booker's own journeys (every booking but an unpaid card one), filtered; newest first.
  .get('/account/journeys', async (c) => {
    const { me, account } = await bookerAccount(c);
    const journeys = await journeysOf(c.var.deps.db, me, filterOf(c));
    return c.json({ fields: account?.fields.map((f) => f.label) ?? [], journeys });
  })
  .get('/account/journeys.csv', async (c) => {
    const { me } = await bookerAccount(c);
    const filter = filterOf(c);
    const journeys = await journeysOf(c.var.deps.db, me, filter);
    const labels = [...new Set(journeys.flatMap((j) => j.fields.map((f) => f.label)))];
    const rows = journeys.map((j) => ({
      ...Object.fromEntries(JOURNEY_COLUMNS.map(([name, read]) => [name, read(j)])),
      ...Object.fromEntries(labels.map((l) => [l, j.fields.find((f) => f.label === l)?.value ?? ''])),
    }));
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="journeys${filter.from ? `-from-${filter.from}` : ''}${filter.to ? `-to-${filter.to}` : ''}.csv"`);
    return c.body(toCsv(rows, [...JOURNEY_COLUMNS.map(([name]) => name), ...labels]));
  });
