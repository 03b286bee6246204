// The accounts' monthly invoices (issue 44 §3, decision 62). On the first day of each month (the server's 15-minute
// timer tries every time; only what is missing is issued) and on demand from the console, one invoice per account for
// its finished journeys (completed and no-show) up to the end of the month before, each journey on one invoice only:
// a journey finished late goes on the next month's. An invoice is numbered in the site's one gap-free sequence
// (invoice_counter, locked and raised in the transaction that writes it), written whole and never changed; the credit
// and debit notes issued since the account's last invoice are carried onto it, and what it asks to be paid is the
// invoice less the credits and plus the debits. Two runs at once (or on two processes) take turns on the account's row
// and the unique (account, month) index: each invoice is issued once. A month with no journeys issues nothing.
import type { Db, Queryable } from '../db/index';
import {
  amountDue, dueOn, monthLabel, type AccountInvoiceLine,
} from '../../domain/accounts';
import { formatExactPrice, penceToPounds } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import { invoiceLabel, noteLabel, vatOf } from '../payments/invoices';
import { enqueueEmail } from '../mail/queue';
import { accountInvoiceMail } from '../mail/templates';

export interface AccountInvoice {
  number: number; account_id: number; account_name: string; period_start: string; issued_at: Date; due_on: string; paid_on: string | null;
  paid_by: string | null; vat_number: string; vat_rate: number; lines: AccountInvoiceLine[]; net_pence: number; vat_pence: number;
  gross_pence: number; amount_due_pence: number; seller: { name: string; lines: string[] };
  buyer: { name: string; lines: string[]; vat_number: string };
  /** The notes carried onto it (issued since the account's invoice before), and those issued against it since. */
  carried: CarriedNote[]; notes: CarriedNote[];
}
export interface CarriedNote {
  kind: 'credit' | 'debit'; number: number; invoice_number: number; booking_number: string; description: string; gross_pence: number;
  net_pence: number; vat_pence: number; vat_rate: number; issued_at: Date;
}

const NOTE_SELECT = `n.kind, n.number, n.invoice_number, b.booking_number, n.lines->0->>'description' AS description, n.gross_pence,
  n.net_pence, n.vat_pence, n.vat_rate::float AS vat_rate, n.issued_at`;

const INVOICE_SELECT = `i.number, i.account_id, a.name AS account_name, to_char(i.period_start, 'YYYY-MM-DD') AS period_start, i.issued_at,
  to_char(i.due_on, 'YYYY-MM-DD') AS due_on, to_char(i.paid_on, 'YYYY-MM-DD') AS paid_on, i.paid_by, i.vat_number, i.vat_rate::float AS vat_rate,
  i.lines, i.net_pence, i.vat_pence, i.gross_pence, i.amount_due_pence, i.seller, i.buyer,
  (SELECT coalesce(json_agg(x ORDER BY x.kind, x.number), '[]') FROM (SELECT ${NOTE_SELECT} FROM invoice_notes n JOIN bookings b ON b.id = n.booking_id
     WHERE n.carried_to = i.number) x) AS carried,
  (SELECT coalesce(json_agg(x ORDER BY x.issued_at, x.number), '[]') FROM (SELECT ${NOTE_SELECT} FROM invoice_notes n JOIN bookings b ON b.id = n.booking_id
     WHERE n.invoice_number = i.number) x) AS notes`;

/** An account's invoices, newest first (`scope`: a company's staff see their own company's accounts' only). */
export const accountInvoices = (q: Queryable, where: { accountId?: number; scope?: number | null }) => q.query<AccountInvoice>(
  `SELECT ${INVOICE_SELECT} FROM invoices i JOIN accounts a ON a.id = i.account_id
    WHERE ($1::int IS NULL OR i.account_id = $1) AND ($2::int IS NULL OR a.company_id = $2)
    ORDER BY i.number DESC LIMIT 500`, [where.accountId ?? null, where.scope ?? null]);

/** One account invoice by its number, within `accountId` or `scope` when given. */
export async function accountInvoice(q: Queryable, number: number, where: { accountId?: number; scope?: number | null } = {}): Promise<AccountInvoice | null> {
  const [row] = await q.query<AccountInvoice>(
    `SELECT ${INVOICE_SELECT} FROM invoices i JOIN accounts a ON a.id = i.account_id
      WHERE i.number = $1 AND ($2::int IS NULL OR i.account_id = $2) AND ($3::int IS NULL OR a.company_id = $3)`,
    [number, where.accountId ?? null, where.scope ?? null]);
  return row ?? null;
}

interface Journey {
  id: number; booking_number: string; date: string; time: string; pickup: string; dropoff: string | null; hours: string | null;
  passenger: string; vehicle: string; fields: { label: string; value: string }[] | null; status: string; total: number;
}

const routeOf = (j: Journey) => (j.dropoff ? `${j.pickup} to ${j.dropoff}` : `${j.pickup}, hourly${j.hours ? ` (${j.hours.replace(/hour$/, ' hours')})` : ''}`);

/** VAT_RATE in per cent (20 unless the operator says otherwise); 0 when the operator has no VAT number. */
function rateOf(s: Settings): number {
  if (!s.VAT_NUMBER?.trim()) return 0;
  const n = Number(s.VAT_RATE);
  return s.VAT_RATE?.trim() && Number.isFinite(n) && n >= 0 && n < 100 ? n : 20;
}

export interface RunOptions {
  /** The month invoiced, as its first day; the month before `now`'s when not given. */
  periodStart: string;
  now: Date; settings: Settings; siteUrl: string;
  /** Only this account (the console's "Issue now" on one account). */
  accountId?: number;
}

/** Issues what is missing of the month's account invoices; answers the numbers issued (none when all were). */
export async function issueAccountInvoices(db: Db, o: RunOptions): Promise<number[]> {
  const end = nextMonth(o.periodStart);
  const candidates = await db.query<{ id: number }>(
    `SELECT DISTINCT b.account_id AS id FROM bookings b
      WHERE b.account_id IS NOT NULL AND b.status IN ('completed', 'no_show') AND b.pick_up_date < $1::date
        AND ($2::int IS NULL OR b.account_id = $2)
        AND NOT EXISTS (SELECT 1 FROM invoice_bookings ib WHERE ib.booking_id = b.id)
        AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = b.account_id AND i.period_start = $3::date)
      ORDER BY 1`, [end, o.accountId ?? null, o.periodStart]);
  const issued: number[] = [];
  let failed: unknown = null;
  for (const { id } of candidates) {
    // One account that cannot be invoiced (its transaction rolled back whole) does not hold up the others.
    try {
      const number = await db.transaction((tx) => issueOne(tx, id, o, end));
      if (number !== null) issued.push(number);
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed && !issued.length) throw failed;
  if (failed) console.error('An account could not be invoiced:', failed);
  return issued;
}

const nextMonth = (start: string) => {
  const [y, m] = start.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
};

async function issueOne(tx: Queryable, accountId: number, o: RunOptions, end: string): Promise<number | null> {
  // The account's row first: a second run waits here, then finds the month issued.
  const [account] = await tx.query<{ name: string; address: string; billing_email: string; vat_number: string; terms_days: number }>(
    'SELECT name, address, billing_email, vat_number, terms_days FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  if (!account) return null;
  const [done] = await tx.query('SELECT 1 FROM invoices WHERE account_id = $1 AND period_start = $2::date', [accountId, o.periodStart]);
  if (done) return null;
  // Each journey's row is locked as a change, cancel or payment of it would (the order settleInvoice takes).
  const journeys = await tx.query<Journey>(
    `SELECT b.id, b.booking_number, to_char(b.pick_up_date, 'YYYY-MM-DD') AS date, b.pick_up_time AS time, b.pick_up_address AS pickup,
            b.drop_off_address AS dropoff, b.hourly_duration AS hours, coalesce(p.passenger_name, '') AS passenger,
            v.category_name AS vehicle, b.account_fields AS fields, b.status, b.total_booking_amount_pence AS total
       FROM bookings b JOIN vehicle_types v ON v.id = b.vehicle_type_id LEFT JOIN booking_passengers p ON p.booking_id = b.id
      WHERE b.account_id = $1 AND b.status IN ('completed', 'no_show') AND b.pick_up_date < $2::date
        AND NOT EXISTS (SELECT 1 FROM invoice_bookings ib WHERE ib.booking_id = b.id)
      ORDER BY b.pick_up_date, b.pick_up_time, b.id FOR UPDATE OF b`, [accountId, end]);
  if (!journeys.length) return null;
  const lines: AccountInvoiceLine[] = journeys.map((j) => ({
    booking_number: j.booking_number, date: `${formatDateUK(j.date)} ${j.time}`, passenger: j.passenger,
    route: `${routeOf(j)}${j.status === 'no_show' ? ' (passenger did not show)' : ''}`, vehicle: j.vehicle, fields: j.fields ?? [], pence: j.total,
  }));
  const gross = lines.reduce((sum, l) => sum + l.pence, 0);
  const rate = rateOf(o.settings);
  const { net, vat } = vatOf(gross, rate);
  const [{ last: number }] = await tx.query<{ last: number }>('UPDATE invoice_counter SET last = last + 1 WHERE id = 1 RETURNING last');
  const today = ukToday(o.now);
  const due = dueOn(today, account.terms_days);
  const seller = {
    name: o.settings.Company_Name ?? '',
    lines: [o.settings.Company_Address ?? '', [o.settings.Company_Contact_Info, o.settings.Company_Email].filter(Boolean).join('  |  ')].filter(Boolean),
  };
  const buyer = { name: account.name, lines: account.address ? account.address.split(/\n|, /).filter(Boolean) : [], vat_number: account.vat_number };
  await tx.query(
    `INSERT INTO invoices (number, account_id, period_start, due_on, vat_number, vat_rate, lines, net_pence, vat_pence, gross_pence,
                           seller, buyer, journey, payment, amount_due_pence, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '[]', $13, $10, $14)`,
    [number, accountId, o.periodStart, due, o.settings.VAT_NUMBER?.trim() ?? '', rate, JSON.stringify(lines), net, vat, gross,
      JSON.stringify(seller), JSON.stringify(buyer), `On account, due by ${formatDateUK(due)} (${account.terms_days} days)`, o.now.toISOString()]);
  await tx.query(
    'INSERT INTO invoice_bookings (invoice_number, booking_id, gross_pence) SELECT $1, j.id, j.pence FROM json_to_recordset($2) AS j(id int, pence int)',
    [number, JSON.stringify(journeys.map((j) => ({ id: j.id, pence: j.total })))]);
  // The notes issued on the account's earlier invoices since the last one, carried onto this statement.
  const carried = await tx.query<{ kind: 'credit' | 'debit'; gross_pence: number; number: number }>(
    `UPDATE invoice_notes n SET carried_to = $1 FROM invoices i
      WHERE i.number = n.invoice_number AND i.account_id = $2 AND n.carried_to IS NULL AND i.number <> $1
      RETURNING n.kind, n.gross_pence, n.number`, [number, accountId]);
  const amount = amountDue(gross, carried);
  await tx.query('UPDATE invoices SET amount_due_pence = $1 WHERE number = $2', [amount, number]);
  const money = (p: number) => formatExactPrice(penceToPounds(p));
  const mail = accountInvoiceMail({
    number: invoiceLabel(number), account: account.name, month: monthLabel(o.periodStart), journeys: lines.length, gross: money(gross),
    notes: carried.length ? carried.map((n) => `${noteLabel(n)} ${n.kind === 'credit' ? '-' : '+'}${money(n.gross_pence)}`).join(', ') : null,
    due: money(amount), dueOn: formatDateUK(due), link: `${o.siteUrl}/bookings`,
  }, o.settings);
  await enqueueEmail(tx, { kind: 'account_invoice', to: account.billing_email, subject: mail.subject, text: mail.text, html: mail.html });
  return number;
}

/** Marks an account invoice paid on `paidOn` (a UK date) by `by`; answers it before, or null when not found. */
export async function markInvoicePaid(tx: Queryable, number: number, paidOn: string | null, by: string, scope: number | null) {
  const before = await accountInvoice(tx, number, { scope });
  if (!before) return null;
  await tx.query('UPDATE invoices SET paid_on = $1, paid_by = $2 WHERE number = $3', [paidOn, paidOn ? by : null, number]);
  return before;
}
