// Manage my booking (issue 27): every call carries the link's key in the X-Manage-Key header (the page reads it from
// the link's fragment, which no browser sends to a server). GET /manage/{reference} shows the booking, POST
// .../changes changes it (or says what the change costs), .../changes/{id}/payment-intent and .../complete pay a
// higher price's difference by card (the card page's confirm call confirms it), POST .../cancel cancels it, GET
// .../receipt is its PDF (?document= one of its invoice's credit or debit notes), GET .../live follows the driver's job
// (issue 41). POST /manage/find sends a new link.
import { Hono, type Context } from 'hono';
import { readBody } from '../http/body';
import { ChangeBody, ChangeCompleteBody, ChangePaymentBody, FindBody } from '../../domain/manageSchemas';
import { clientAddress } from '../http/clientAddress';
import { loadSettings, type AppEnv } from '../deps';
import { DomainError } from '../errors';
import { quoteContext } from '../pricing/quote';
import { makeRefunds } from '../payments/refunds';
import { findBooking, manageReceipt, manageView } from './manage';
import { applyPaidChange, askChange, startChangePayment } from './changes';
import { cancelByPassenger } from './cancel';
import { bookingOfKey, mintKey } from '../bookings/manageKeys';
import { SESSION_ENDED, bearerToken, passengerOfToken } from '../auth/tokens';
import { MANAGE_MESSAGES } from '../../domain/manageRules';
import { loadBooking } from '../bookings/queries';
import { PAYMENT_NOT_COMPLETE } from '../bookings/cardBookings';
import { liveHubOf } from '../live/hub';
import { liveJob } from '../live/liveJob';
import { liveStream } from '../live/sse';

const keyOf = (c: Context) => c.req.header('X-Manage-Key') ?? '';
const changeIdOf = (c: Context) => {
  const id = Number(c.req.param('id'));
  if (!Number.isInteger(id) || id <= 0) throw new DomainError('notFound', 'There is no such change to pay for.');
  return id;
};

export const manageRoutes = new Hono<AppEnv>()
  .get('/manage/:reference', async (c) => {
    const { db, now } = c.var.deps;
    return c.json(await manageView(db, c.req.param('reference'), keyOf(c), await loadSettings(db), now()));
  })
  // The job as it moves (issue 41 §3), as Server-Sent Events: a `job` event now and after each change or position.
  .get('/manage/:reference/live', async (c) => {
    const { db } = c.var.deps;
    const bookingId = await bookingOfKey(db, c.req.param('reference'), keyOf(c));
    const { security } = c.var.deps;
    return liveStream(c, (send) => liveHubOf(db).watchBooking(bookingId, () => liveJob(db, bookingId), (job) => send('job', job)),
      { owner: `booking ${bookingId}`, address: clientAddress(c, security.trustProxy), limits: security.liveStreams });
  })
  .get('/manage/:reference/receipt', async (c) => {
    const { db, now } = c.var.deps;
    // ?document=CN-000001: one of the invoice's notes (or the invoice, INV-...) by its number; none: the receipt itself.
    const { pdf, fileName } = await manageReceipt(db, c.req.param('reference'), keyOf(c), await loadSettings(db), now(), c.req.query('document'));
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `attachment; filename="${fileName}"`);
    return c.body(new Uint8Array(pdf));
  })
  .post('/manage/:reference/changes', async (c) => {
    const { deps } = c.var;
    const ctx = await quoteContext(deps);
    const body = await readBody(c, ChangeBody);
    const answer = await askChange({ db: deps.db, ctx, settings: ctx.settings, now: ctx.now, siteUrl: deps.siteUrl, limits: deps.security.limits }, c.req.param('reference'), keyOf(c), body);
    if (answer.status === 'saved') {
      deps.mail.kick();
      const refund = await makeRefunds(deps.db, deps.cards, answer.refundIds);
      return c.json({ status: 'saved', refund, ...(await manageView(deps.db, c.req.param('reference'), keyOf(c), ctx.settings, deps.now())) });
    }
    return c.json(answer);
  })
  .post('/manage/:reference/changes/:id/payment-intent', async (c) => {
    const { deps } = c.var;
    const body = await readBody(c, ChangePaymentBody);
    if (!body.paymentMethodId) throw new DomainError('invalid', 'paymentMethodId is required', 'paymentMethodId');
    const settings = await loadSettings(deps.db);
    return c.json({ success: true, ...(await startChangePayment(
      { db: deps.db, ctx: await quoteContext(deps), settings, now: deps.now(), siteUrl: deps.siteUrl, limits: deps.security.limits, stripe: deps.cards.stripe },
      c.req.param('reference'), keyOf(c), changeIdOf(c), body.paymentMethodId)) });
  })
  // The browser's completion of a paid difference: the change applied (once), answered as the booking call answers.
  .post('/manage/:reference/changes/:id/complete', async (c) => {
    const { deps } = c.var;
    const bookingId = await bookingOfKey(deps.db, c.req.param('reference'), keyOf(c));
    const body = await readBody(c, ChangeCompleteBody);
    const [change] = await deps.db.query<{ payment_intent_id: string | null }>(
      'SELECT payment_intent_id FROM booking_changes WHERE id = $1 AND booking_id = $2', [changeIdOf(c), bookingId]);
    if (!change?.payment_intent_id || change.payment_intent_id !== body.paymentIntentId) {
      throw new DomainError('invalid', 'This payment does not belong to this change.', 'paymentIntentId');
    }
    const pi = await (await deps.cards.stripe()).paymentIntents.retrieve(change.payment_intent_id);
    if (pi.status !== 'succeeded') throw new DomainError('invalid', PAYMENT_NOT_COMPLETE, 'paymentIntentId');
    const settings = await loadSettings(deps.db);
    const { outcome, refundIds } = await deps.db.transaction((tx) => applyPaidChange(tx, { settings, siteUrl: deps.siteUrl, now: deps.now() }, pi));
    deps.mail.kick();
    await makeRefunds(deps.db, deps.cards, refundIds);
    if (outcome === 'mismatch') throw new DomainError('invalid', 'This payment does not belong to this change.', 'paymentIntentId');
    if (outcome === 'refunded') throw new DomainError('conflict', 'This change could no longer be made, so the payment for it is refunded in full.');
    return c.json({ success: true, message: 'Your change is saved.', data: (await loadBooking(deps.db, bookingId))! });
  })
  .post('/manage/:reference/cancel', async (c) => {
    const { deps } = c.var;
    const settings = await loadSettings(deps.db);
    const { refundIds } = await cancelByPassenger({ db: deps.db, settings, now: deps.now(), siteUrl: deps.siteUrl, limits: deps.security.limits }, c.req.param('reference'), keyOf(c));
    deps.mail.kick();
    const refund = await makeRefunds(deps.db, deps.cards, refundIds);
    return c.json({ status: 'cancelled', refund, ...(await manageView(deps.db, c.req.param('reference'), keyOf(c), settings, deps.now())) });
  })
  // A signed-in corporate passenger's Manage in /bookings: a key of their own for a booking of their account.
  .post('/manage/:reference/key', async (c) => {
    const { db } = c.var.deps;
    const token = bearerToken(c);
    const passengerId = token ? await passengerOfToken(db, token) : null;
    if (passengerId === null) throw new DomainError('unauthenticated', SESSION_ENDED, 'Authorization');
    const [row] = await db.query<{ id: number }>(
      'SELECT id FROM bookings WHERE booking_number = $1 AND passenger_id = $2 AND personal_data_removed_at IS NULL',
      [c.req.param('reference').trim().toUpperCase(), passengerId]);
    if (!row) throw new DomainError('notFound', MANAGE_MESSAGES.unknownLink);
    return c.json({ key: await mintKey(db, row.id) });
  })
  .post('/manage/find', async (c) => {
    const { db, security, siteUrl, mail } = c.var.deps;
    const body = await readBody(c, FindBody);
    const message = await findBooking(
      { db, limits: security.limits, client: clientAddress(c, security.trustProxy), siteUrl, settings: await loadSettings(db) },
      body.reference ?? '', body.email ?? '');
    mail.kick();
    return c.json({ success: true, message });
  });
