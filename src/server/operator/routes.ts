// The console's calls, under /api/v1/operator (issue 26). A member of staff signs in for an HttpOnly session cookie;
// every other call needs it (401 without), and a company member reaches only their company's bookings (another's is
// 404). The API's key headers and JSON-only bodies apply here as everywhere, so no other site can make these calls.
// Every body is typed by its schema (src/domain/consoleSchemas.ts) before anything reads it: a wrong type is a 422
// naming the field.
import { bookingFlight } from '../flights/bookingFlight';
import { liveHubOf } from '../live/hub';
import { liveStream } from '../live/sse';
import { alertMinutes } from '../../domain/tracking';
import { Hono, type Context } from 'hono';
import { clientAddress } from '../http/clientAddress';
import { readBody, validate } from '../http/body';
import { DomainError } from '../errors';
import { isBoardTab, isBookingStatus, MESSAGES, ROLE_LABELS, STATUS_LABELS, deskActions, type StaffRole } from '../../domain/operatorDesk';
import { CancelBody, DataChangeBody, DataRequest, AssignBody, SignInBody } from '../../domain/consoleSchemas';
import { isCalendarDate, ukToday } from '../../domain/ukTime';
import { penceToPounds } from '../../domain/money';
import { loadSettings, type AppEnv } from '../deps';
import { loadBooking } from '../bookings/queries';
import { endSession, listStaff, signInStaff, type Staff } from './staff';
import { clearSessionCookie, requireStaff, sessionToken, setSessionCookie, staffOfRequest } from './session';
import {
  EXPORT_COLUMNS, boardRows, deskBooking, exportRows, latestBooking, mailRows, scopeOf, timelineOf,
} from './deskQueries';
import { assignDriver, audit, cancelBooking, dispatchNeeds, finishBooking, refundRest, type DeskDeps } from './desk';
import { makeRefunds } from '../payments/refunds';
import { paymentsLeft, refundableLeft, refundSummary } from '../payments/ledger';
import { toCsv } from '../http/csv';
import { bookingRecordOf } from './records';
import { renewConfirmation } from '../bookings/renewConfirmation';
import { changeData, dataSection, isDataSection } from './operatorData';
import { mayChange, sectionsFor } from '../../domain/operatorData';
import { JOB_STATUS_LABELS, type JobStatus } from '../../domain/driverJobs';
import { REGISTER_COLUMNS, registerRows } from '../../domain/staffRegister';
import { mayAdjustCharge } from '../../domain/accounts';

async function deskDeps(c: Context<AppEnv>): Promise<DeskDeps> {
  const { db, now, siteUrl } = c.var.deps;
  return { db, now: now(), siteUrl, settings: await loadSettings(db) };
}

const idParam = (v: string | undefined) => (v && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

export const operatorRoutes = new Hono<AppEnv>()
  .post('/operator/session', async (c) => {
    const { db, security } = c.var.deps;
    const body = await readBody(c, SignInBody);
    const email = body.email?.trim() ?? '';
    const password = body.password ?? '';
    if (!email) throw new DomainError('invalid', 'Enter your e-mail.', 'email');
    if (!password) throw new DomainError('invalid', 'Enter your password.', 'password');
    const result = await signInStaff(db, email, password, clientAddress(c, security.trustProxy), security.passwordHashCost);
    if (!result) throw new DomainError('unauthenticated', MESSAGES.signInFailed, 'password');
    setSessionCookie(c, result.token);
    return c.json({ staff: result.staff });
  })
  .delete('/operator/session', async (c) => {
    const token = sessionToken(c);
    if (token) await endSession(c.var.deps.db, token);
    clearSessionCookie(c);
    return c.json({ signedOut: true });
  })
  // Who is signed in in this browser: null when nobody is (not a 401, which a browser logs as an error).
  .get('/operator/session', async (c) => {
    return c.json({ staff: await staffOfRequest(c) });
  })
  .get('/operator/bookings', async (c) => {
    const staff = await requireStaff(c);
    const tab = c.req.query('tab') ?? 'today';
    if (!isBoardTab(tab)) throw new DomainError('invalid', `tab is one of today, upcoming, past, awaiting, cancelled`, 'tab');
    const status = c.req.query('status') || undefined;
    if (status && !isBookingStatus(status)) throw new DomainError('invalid', 'status is not a booking status', 'status');
    const { db, now } = c.var.deps;
    const scope = scopeOf(staff);
    const [board, latest] = await Promise.all([
      boardRows(db, scope, { tab, q: c.req.query('q')?.slice(0, 100), company: idParam(c.req.query('company')), vehicle: idParam(c.req.query('vehicle')), status }, now()),
      latestBooking(db, scope),
    ]);
    // The minutes of the board's alerts (src/domain/tracking.ts boardAlerts): the board counts them as time passes.
    return c.json({ ...board, latest, alert_minutes: alertMinutes(await loadSettings(db)) });
  })
  // Every change of a booking the member of staff may see (a driver's step, an assignment, a cancellation), as it
  // commits in any process (issue 41 §5): Server-Sent Events `changed` { id }, for the board and the booking's page.
  .get('/operator/live', async (c) => {
    // Opened by the console by itself (again every 5 minutes): it never keeps an idle session alive.
    const staff = await requireStaff(c, { background: true });
    const scope = scopeOf(staff);
    const { db, security } = c.var.deps;
    return liveStream(c, async (send) => {
      const stop = await liveHubOf(db).watchChanges((id, company) => {
        if (scope === null || company === scope || company === null) send('changed', { id });
      });
      // Opened (again): whatever changed while it was shut is loaded afresh.
      send('changed', { id: 0 });
      return stop;
    }, { owner: `staff ${staff.id}`, address: clientAddress(c, security.trustProxy), limits: security.liveStreams });
  })
  // What the board polls every few seconds: the newest booking's id tells it when to load again.
  .get('/operator/latest', async (c) => {
    const staff = await requireStaff(c);
    return c.json(await latestBooking(c.var.deps.db, scopeOf(staff)));
  })
  .get('/operator/filters', async (c) => {
    const staff = await requireStaff(c);
    const { db } = c.var.deps;
    const scope = scopeOf(staff);
    const [companies, vehicles] = await Promise.all([
      db.query('SELECT id, company_name FROM companies WHERE $1::int IS NULL OR id = $1 ORDER BY company_name', [scope]),
      db.query('SELECT id, category_name FROM vehicle_types ORDER BY sort_order, id'),
    ]);
    return c.json({ companies, vehicles, statuses: Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })) });
  })
  .get('/operator/bookings/:reference', async (c) => {
    const staff = await requireStaff(c);
    const { db, now } = c.var.deps;
    const b = await deskBooking(db, scopeOf(staff), c.req.param('reference'));
    if (!b) throw new DomainError('notFound', MESSAGES.notFound);
    const [booking, timeline, refund, payments, needs, flight, record] = await Promise.all([
      loadBooking(db, b.id), timelineOf(db, b.id), refundSummary(db, b.id), paymentsLeft(db, b.id), dispatchNeeds(db, b), bookingFlight(db, b.id),
      bookingRecordOf(db, scopeOf(staff), b.id),
    ]);
    const refundable = refundableLeft(payments);
    return c.json({
      booking,
      desk: {
        status: b.status, status_label: STATUS_LABELS[b.status as keyof typeof STATUS_LABELS] ?? b.status,
        pickup_at: b.pickup_at,
        actions: deskActions({ status: b.status, pickupAt: new Date(b.pickup_at), leftPence: refundable, chargeAdjustable: mayAdjustCharge(b) }, staff.role, now()),
        // Issue 44: the account a journey on account is billed to (its Change charge, its invoices).
        account: b.account_id === null ? null : { id: b.account_id, name: b.account_name },
        breakdown: b.price_breakdown.lines,
        payment: {
          method: b.payment_method, status: b.payment_status, charge_id: b.payment_id, intent_id: b.payment_intent_id,
          test: b.payment_livemode === false, refundable: refundable > 0 ? penceToPounds(refundable) : null,
        },
        driver: b.driver, needs, cancel_reason: b.cancel_reason, flight,
        job: b.job_status ? { status: b.job_status, label: JOB_STATUS_LABELS[b.job_status as JobStatus] ?? b.job_status, declined_by: b.declined_by } : null,
        refund: refund && { amount: penceToPounds(refund.pence), status: refund.status, id: refund.providerIds.join(', ') || null, error: refund.error },
      },
      timeline,
      // Issue 43 §2: what the licensing record keeps of it.
      record,
    });
  })
  .post('/operator/bookings/:reference/driver', async (c) => {
    const staff = await requireStaff(c);
    const driver = await assignDriver(await deskDeps(c), staff, c.req.param('reference'), await readBody(c, AssignBody));
    c.var.deps.mail.kick();
    return c.json({ driver });
  })
  .post('/operator/bookings/:reference/complete', async (c) => {
    const staff = await requireStaff(c);
    return c.json({ status: await finishBooking(await deskDeps(c), staff, c.req.param('reference'), 'completed') });
  })
  .post('/operator/bookings/:reference/no-show', async (c) => {
    const staff = await requireStaff(c);
    return c.json({ status: await finishBooking(await deskDeps(c), staff, c.req.param('reference'), 'no_show') });
  })
  .post('/operator/bookings/:reference/cancel', async (c) => {
    const staff = await requireStaff(c);
    const { refundIds } = await cancelBooking(await deskDeps(c), staff, c.req.param('reference'), await readBody(c, CancelBody));
    c.var.deps.mail.kick();
    const refund = await makeRefunds(c.var.deps.db, c.var.deps.cards, refundIds, c.var.deps.now());
    return c.json({ status: 'cancelled', refund });
  })
  // What a cancellation left of a card payment, refunded later by the office (a company's staff cancel without a
  // refund): all that is left, written once (a second press finds nothing left), then made as every refund is.
  .post('/operator/bookings/:reference/refund-rest', async (c) => {
    const staff = await requireStaff(c);
    const { refundIds } = await refundRest(await deskDeps(c), staff, c.req.param('reference'));
    c.var.deps.mail.kick();
    return c.json({ refund: await makeRefunds(c.var.deps.db, c.var.deps.cards, refundIds, c.var.deps.now()) });
  })
  // A refund the provider did not make (it did not answer, or refused): asked again, under the same key.
  .post('/operator/bookings/:reference/refund', async (c) => {
    const staff = await requireStaff(c);
    const { db, cards } = c.var.deps;
    const b = await deskBooking(db, scopeOf(staff), c.req.param('reference'));
    if (!b) throw new DomainError('notFound', MESSAGES.notFound);
    const refund = await refundSummary(db, b.id);
    if (!refund) throw new DomainError('conflict', 'This booking has no refund to make.');
    if (refund.status !== 'succeeded') await audit(db, staff, 'Refund retried', b.id, '', { status: refund.status }, undefined);
    return c.json({ refund: await makeRefunds(db, cards, refund.ids, c.var.deps.now()) });
  })
  .get('/operator/emails', async (c) => {
    const staff = await requireStaff(c);
    const status = c.req.query('status') ?? 'failed';
    if (status !== 'pending' && status !== 'failed' && status !== 'sent') throw new DomainError('invalid', 'status is pending, failed or sent', 'status');
    return c.json({ emails: await mailRows(c.var.deps.db, scopeOf(staff), status) });
  })
  .post('/operator/emails/:id/retry', async (c) => {
    const staff = await requireStaff(c);
    const { db, mail, siteUrl } = c.var.deps;
    const id = idParam(c.req.param('id'));
    // A confirmation lost its body when it failed (it held the booking's link): written again with a new link.
    const settings = await loadSettings(db);
    if (id !== undefined && await db.transaction((tx) => renewConfirmation(tx, id, settings, siteUrl, scopeOf(staff)))) {
      const [renewed] = await db.query<{ booking_id: number; subject: string }>('SELECT booking_id, subject FROM outbound_emails WHERE id = $1', [id]);
      await audit(db, staff, 'E-mail retried', renewed.booking_id, renewed.subject, { status: 'failed' }, { status: 'pending' });
      mail.kick();
      return c.json({ retried: id });
    }
    // Reset codes and Find my booking's links lose their body when they fail: the passenger asks again instead.
    const [row] = id === undefined ? [] : await db.query<{ id: number; booking_id: number | null; subject: string }>(
      `UPDATE outbound_emails e SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL
        WHERE e.id = $1 AND e.status = 'failed' AND NOT e.erase_after_send
          AND ($2::int IS NULL OR EXISTS (SELECT 1 FROM bookings b WHERE b.id = e.booking_id AND b.company_id = $2))
        RETURNING e.id, e.booking_id, e.subject`, [id, scopeOf(staff)]);
    if (!row) throw new DomainError('conflict', 'This message is not waiting to be retried (it was sent, is being sent, or held a reset code or a link the passenger can ask for again).');
    await audit(db, staff, 'E-mail retried', row.booking_id, row.subject, { status: 'failed' }, { status: 'pending' });
    mail.kick();
    return c.json({ retried: row.id });
  })
  // Operator data: settings, companies, fleet and rates, places, staff (administrators); drivers and cars (every
  // member of staff, a company's staff their own company's).
  .get('/operator/data/:section', async (c) => {
    const staff = await requireStaff(c);
    const section = c.req.param('section');
    if (!isDataSection(section)) throw new DomainError('notFound', 'No such part of the operator data.');
    if (!sectionsFor(staff.role).includes(section)) throw new DomainError('forbidden', MESSAGES.adminOnly);
    return c.json({ section, data: await dataSection(c.var.deps.db, section, scopeOf(staff), c.var.deps.now()) });
  })
  .post('/operator/data', async (c) => {
    const staff = await requireStaff(c);
    const raw = (await readBody(c, DataRequest)).change as { kind?: unknown };
    // Who may make it is asked first: only an administrator learns what is wrong with a change of theirs.
    if (!mayChange(staff.role, String(raw.kind))) throw new DomainError('forbidden', MESSAGES.adminOnly);
    // The change's fields are named as the forms name them (company_name, bands.0.per_mile), not change.company_name.
    const change = validate(raw, DataChangeBody);
    return c.json(await changeData(c.var.deps.db, staff, change, c.var.deps.security.passwordHashCost, scopeOf(staff), c.var.deps.now()));
  })
  // The register of booking and dispatch staff (issue 43), with each one's DBS certificate: administrators, as CSV.
  .get('/operator/staff-register.csv', async (c) => {
    const staff = await requireStaff(c);
    if (!sectionsFor(staff.role).includes('staff')) throw new DomainError('forbidden', MESSAGES.adminOnly);
    const rows = registerRows(await listStaff(c.var.deps.db), (role) => ROLE_LABELS[role as StaffRole] ?? role);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="staff-register-${ukToday(c.var.deps.now())}.csv"`);
    return c.body(toCsv(rows, [...REGISTER_COLUMNS]));
  })
  .get('/operator/export', async (c) => {
    const staff = await requireStaff(c);
    const from = c.req.query('from') ?? '';
    const to = c.req.query('to') ?? '';
    if (!isCalendarDate(from)) throw new DomainError('invalid', 'Choose the first day, as a date.', 'from');
    if (!isCalendarDate(to)) throw new DomainError('invalid', 'Choose the last day, as a date.', 'to');
    if (to < from) throw new DomainError('invalid', 'The last day is before the first.', 'to');
    const rows = await exportRows(c.var.deps.db, scopeOf(staff), from, to);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="bookings-${from}-to-${to}.csv"`);
    return c.body(toCsv(rows, EXPORT_COLUMNS));
  });
