// The payment link's page calls (issue 43 §1, ./paymentLinks.ts): the booking the link opens, the card on its intent,
// and its completion once paid. The link's key comes in the X-Pay-Key header (the page reads it from the address's
// fragment, which browsers never send). The card's confirmation and the bank's check are the card page's own calls
// (POST /confirm-payment-intent), which know every booking's intent.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps';
import { loadSettings } from '../deps';
import { readBody } from '../http/body';
import { LinkCompleteRequest, LinkIntentRequest } from '../../domain/cardSchemas';
import { bookingOfLink, payPage, refuseUnpayable } from './paymentLinks';
import { finishLinkPayment, startLinkPayment } from './cardBookings';
import { bookingDeps } from './request';
import { mintKey } from './manageKeys';
import { loadBooking } from './queries';
import { DomainError } from '../errors';

export const PAY_KEY_HEADER = 'X-Pay-Key';

const linkOf = (c: Context<AppEnv>) => bookingOfLink(c.var.deps.db, c.req.param('reference') ?? '', c.req.header(PAY_KEY_HEADER) ?? '');

export const payLinkRoutes = new Hono<AppEnv>()
  .get('/pay/:reference', async (c) => {
    const { db, now } = c.var.deps;
    const linked = await linkOf(c);
    return c.json(await payPage(db, linked, now(), await loadSettings(db)));
  })
  .post('/pay/:reference/intent', async (c) => {
    const { deps } = c.var;
    const { paymentMethodId } = await readBody(c, LinkIntentRequest);
    const linked = await linkOf(c);
    refuseUnpayable(linked, deps.now());
    const result = await startLinkPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards },
      { id: linked.id, number: linked.reference, total: linked.total_pence, intent: linked.intent }, paymentMethodId);
    return c.json({ success: true, ...result });
  })
  .post('/pay/:reference/complete', async (c) => {
    const { deps } = c.var;
    const { stripe_session_id: intentId } = await readBody(c, LinkCompleteRequest);
    const linked = await linkOf(c);
    // Paid already (the webhook was first, or a second tab): the same answer, the booking paid once.
    if (!linked.paid) await finishLinkPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards }, linked, intentId);
    deps.mail.kick();
    const page = await payPage(deps.db, await linkOf(c), deps.now(), await loadSettings(deps.db));
    if (page.state !== 'paid') throw new DomainError('conflict', 'This payment has not been completed. Please pay again.', 'stripe_session_id');
    // The booking as the card page's completion answers it (SPEC 7's shape), with the success page's "Manage your
    // booking" key (as after a card booking) for the first call that proves the payment (its intent), whoever
    // completed it (this call, or the provider's webhook first): once per link, so a link sent by text never keeps
    // giving out keys. Later calls are answered without one; the confirmation e-mail has the booking's link.
    const booking = (await loadBooking(deps.db, linked.id))!;
    const first = intentId === linked.intent && (await deps.db.query(
      'UPDATE payment_links SET manage_key_given_at = now() WHERE booking_id = $1 AND manage_key_given_at IS NULL RETURNING 1', [linked.id])).length === 1;
    const manageKey = first ? await mintKey(deps.db, linked.id) : null;
    return c.json({ success: true, message: `Your booking ${linked.reference} is confirmed.`, data: { ...booking, manage_key: manageKey } });
  });
