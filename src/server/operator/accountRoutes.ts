// The console's corporate accounts (issue 44): Operator data > Accounts (an account, its booking fields and bookers),
// Accounts > Invoices (issued, due, overdue, paid; "mark paid"; issue a month's invoices now) and the change of what an
// account's finished journey is charged. Any member of staff sees and keeps accounts, a company's staff their own
// company's only (another's is not found); the money (marking paid, issuing, changing a charge) is the office's
// (administrators and dispatchers), as refunds are. Every change is audited.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps';
import { loadSettings } from '../deps';
import { DomainError } from '../errors';
import { readBody } from '../http/body';
import { AccountBody, AccountFieldBody, BookerBody, ChargeBody, InvoicePaidBody, InvoiceRunBody } from '../../domain/consoleSchemas';
import { chargeErrors, mayAdjustCharge, previousMonth } from '../../domain/accounts';
import { issueMonth, paidOnProblem } from '../../domain/invoiceDesk';
import { mayRefund } from '../../domain/operatorDesk';
import { ukToday } from '../../domain/ukTime';
import { penceToPounds, poundsToPence } from '../../domain/money';
import { accountById, listAccounts, saveAccount, saveField, setBooker } from '../accounts/store';
import { accountInvoices, issueAccountInvoices, markInvoicePaid } from '../accounts/invoiceRun';
import { documentPdf, invoiceSummary } from '../accounts/routes';
import { settleInvoice, noteLabel } from '../payments/invoices';
import { requireStaff } from './session';
import { scopeOf } from './deskQueries';
import { audit } from './desk';
import type { Staff } from './staff';

const idOf = (v: unknown, field = 'id'): number | null => {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n >= 2 ** 31) throw new DomainError('invalid', 'This record is not on the list: reload the page.', field);
  return n;
};
const accountParam = (c: Context) => idOf(c.req.param('id')) ?? 0;

/** The office's own: who moves the operator's money (operatorDesk.ts mayRefund). */
function requireOffice(staff: Staff): void {
  if (!mayRefund(staff.role)) throw new DomainError('forbidden', "Only the office's administrators and dispatchers can do this.");
}

export const accountConsoleRoutes = new Hono<AppEnv>()
  .get('/operator/accounts', async (c) => {
    const staff = await requireStaff(c);
    const { db } = c.var.deps;
    const scope = scopeOf(staff);
    const [accounts, companies] = await Promise.all([
      listAccounts(db, scope),
      db.query('SELECT id, company_name FROM companies WHERE $1::int IS NULL OR id = $1 ORDER BY company_name', [scope]),
    ]);
    return c.json({
      accounts: accounts.map((a) => ({ ...a, credit_limit: penceToPounds(a.credit_limit_pence), exposure: penceToPounds(a.exposure_pence) })),
      companies, may_bill: mayRefund(staff.role),
    });
  })
  .post('/operator/accounts', async (c) => {
    const staff = await requireStaff(c);
    const body = await readBody(c, AccountBody);
    const id = idOf(body.id);
    const saved = await c.var.deps.db.transaction(async (tx) => {
      const s = await saveAccount(tx, scopeOf(staff), id, body);
      await audit(tx, staff, s.before ? 'Account changed' : 'Account added', null, s.account.name, s.before, s.account);
      return s;
    });
    // A company's staff keep the account's details; its credit limit, terms and status stay the office's.
    const office = scopeOf(staff) === null ? '' : ' Its credit limit, payment terms and status are set by the office.';
    return c.json({ done: `${saved.account.name} saved.${office}`, id: saved.id });
  })
  .post('/operator/accounts/:id/fields', async (c) => {
    const staff = await requireStaff(c);
    const body = await readBody(c, AccountFieldBody);
    const saved = await c.var.deps.db.transaction(async (tx) => {
      const s = await saveField(tx, scopeOf(staff), accountParam(c), idOf(body.id), body);
      await audit(tx, staff, s.before ? 'Account field changed' : 'Account field added', null, `${s.account.name}: ${s.field.label}`, s.before, s.field);
      return s;
    });
    return c.json({ done: `${saved.field.label} saved for ${saved.account.name}.` });
  })
  .post('/operator/accounts/:id/bookers', async (c) => {
    const staff = await requireStaff(c);
    const body = await readBody(c, BookerBody);
    const join = body.join !== false;
    const done = await c.var.deps.db.transaction(async (tx) => {
      const s = await setBooker(tx, scopeOf(staff), accountParam(c), body.email ?? '', join);
      await audit(tx, staff, join ? 'Booker added to account' : 'Booker removed from account', null, `${s.account.name}: ${s.passenger.name}`,
        { account_id: s.passenger.account_id }, { account_id: join ? s.account.id : null });
      return `${s.passenger.name} ${join ? 'now books for' : 'no longer books for'} ${s.account.name}.`;
    });
    return c.json({ done });
  })
  .get('/operator/invoices', async (c) => {
    const staff = await requireStaff(c);
    const { db, now } = c.var.deps;
    const accountId = idOf(c.req.query('account'), 'account');
    if (accountId !== null && !(await accountById(db, scopeOf(staff), accountId))) throw new DomainError('notFound', 'No such account on your record.');
    const today = ukToday(now());
    const invoices = await accountInvoices(db, { accountId: accountId ?? undefined, scope: scopeOf(staff) });
    return c.json({ invoices: invoices.map((i) => invoiceSummary(i, today)), last_month: previousMonth(today).start.slice(0, 7), may_bill: mayRefund(staff.role) });
  })
  .get('/operator/invoices/:document', async (c) => {
    const staff = await requireStaff(c);
    const { pdf, fileName } = await documentPdf(c.var.deps.db, c.req.param('document'), { scope: scopeOf(staff) });
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `attachment; filename="${fileName}"`);
    return c.body(new Uint8Array(pdf));
  })
  // Issues what is missing of a month's invoices now (the timer does so on the first of each month).
  .post('/operator/invoices/run', async (c) => {
    const staff = await requireStaff(c);
    requireOffice(staff);
    const body = await readBody(c, InvoiceRunBody);
    const { db, now, siteUrl } = c.var.deps;
    const today = ukToday(now());
    const typed = typeof body.month === 'string' ? body.month.trim() : '';
    const month = issueMonth(typed || previousMonth(today).start, today);
    if ('problem' in month) throw new DomainError('invalid', month.problem, 'month');
    const periodStart = month.start;
    const accountId = idOf(body.account_id, 'account_id');
    if (accountId !== null && !(await accountById(db, scopeOf(staff), accountId))) throw new DomainError('notFound', 'No such account on your record.');
    const issued = await issueAccountInvoices(db, { periodStart, now: now(), settings: await loadSettings(db), siteUrl, accountId: accountId ?? undefined });
    if (issued.length) {
      await audit(db, staff, 'Invoices issued', null, `${periodStart.slice(0, 7)}: ${issued.map((n) => `INV-${String(n).padStart(6, '0')}`).join(', ')}`, null, { issued });
      c.var.deps.mail.kick();
    }
    return c.json({ issued, done: issued.length ? `${issued.length} invoice(s) issued and e-mailed.` : 'Nothing to invoice: every finished journey of that month is invoiced already.' });
  })
  .post('/operator/invoices/:number/paid', async (c) => {
    const staff = await requireStaff(c);
    requireOffice(staff);
    const body = await readBody(c, InvoicePaidBody);
    const number = idOf(c.req.param('number'), 'number');
    const paidOn = body.paid_on === null ? null : (body.paid_on ?? '').trim();
    const problem = paidOn === null ? null : paidOnProblem(paidOn, ukToday(c.var.deps.now()));
    if (problem) throw new DomainError('invalid', problem, 'paid_on');
    const before = await c.var.deps.db.transaction(async (tx) => {
      const b = number === null ? null : await markInvoicePaid(tx, number, paidOn, staff.name, scopeOf(staff));
      if (!b) throw new DomainError('notFound', 'No such invoice on your record.');
      await audit(tx, staff, paidOn ? 'Invoice marked paid' : 'Invoice marked unpaid', null, `INV-${String(b.number).padStart(6, '0')} ${b.account_name}`,
        { paid_on: b.paid_on }, { paid_on: paidOn });
      return b;
    });
    return c.json({ done: `INV-${String(before.number).padStart(6, '0')} ${paidOn ? `marked paid on ${paidOn}` : 'marked unpaid'}.` });
  })
  // What an account's finished journey is charged, changed with a reason: a credit or debit note when it is invoiced.
  .post('/operator/bookings/:reference/charge', async (c) => {
    const staff = await requireStaff(c);
    requireOffice(staff);
    const body = await readBody(c, ChargeBody);
    const [field, message] = Object.entries(chargeErrors(body))[0] ?? [];
    if (field) throw new DomainError('invalid', message!, field);
    const pence = poundsToPence(String(body.amount).trim());
    const reason = String(body.reason).trim();
    const scope = scopeOf(staff);
    const answer = await c.var.deps.db.transaction(async (tx) => {
      const [b] = await tx.query<{ id: number; status: string; account_id: number | null; total: number }>(
        `SELECT id, status, account_id, total_booking_amount_pence AS total FROM bookings
          WHERE booking_number = $1 AND ($2::int IS NULL OR company_id = $2) FOR UPDATE`, [c.req.param('reference'), scope]);
      if (!b) throw new DomainError('notFound', 'No such booking.');
      if (!mayAdjustCharge(b)) throw new DomainError('conflict', 'Only a journey on account, once completed or a no-show, has its charge changed here.');
      if (b.total === pence) throw new DomainError('invalid', 'This is what the journey is charged already.', 'amount');
      await tx.query('UPDATE bookings SET total_booking_amount_pence = $1 WHERE id = $2', [pence, b.id]);
      await audit(tx, staff, 'Charge changed', b.id, reason, { total: penceToPounds(b.total) }, { total: penceToPounds(pence) });
      return settleInvoice(tx, b.id);
    });
    return c.json({
      done: answer ? `Charge changed: ${answer.kind} note ${noteLabel(answer)} issued on the account's invoice.` : 'Charge changed: it goes on the account\'s next invoice.',
      note: answer ? noteLabel(answer) : null,
    });
  });
