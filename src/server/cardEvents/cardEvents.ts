// What the card provider tells of a succeeded payment, wherever it is heard: its signed webhook, or the check the
// server runs at start and every 15 minutes. A payment completes the card booking it was for (bookings/cardBookings.ts)
// or applies the passenger's change it paid the difference of (manage/changes.ts), once, in one transaction; a
// refund the change owes is then made (payments/refunds.ts). It stands above both, so neither reads upwards.
import type Stripe from 'stripe';
import type { Db } from '../db/index';
import type { Settings } from '../../domain/settings';
import { DomainError } from '../errors';
import type { CardProvider } from '../payments/provider';
import { makeRefunds } from '../payments/refunds';
import { completeCardBooking } from '../bookings/cardBookings';
import { recentPendingIntents, recordEvent } from '../bookings/cardQueries';
import { applyPaidChange } from '../manage/changes';

/**
 * At start (and now and then): pending card bookings whose intent succeeded while no one was told (the server
 * stopped between the charge and the booking, a webhook that never came) are completed. Only recent ones are
 * asked about; an older pending booking was abandoned.
 */
export async function reconcileCardBookings(db: Db, cards: CardProvider, site?: ChangeSite): Promise<number> {
  let completed = site ? await reconcilePaidChanges(db, cards, site) : 0;
  for (const payment_intent_id of await recentPendingIntents(db)) {
    try {
      const pi = await (await cards.stripe()).paymentIntents.retrieve(payment_intent_id);
      if (pi.status === 'succeeded' && (await db.transaction((tx) => completeCardBooking(tx, pi))) === 'completed') completed++;
    } catch (err) {
      console.error(`Could not check payment ${payment_intent_id}: ${(err as Error).message}`);
    }
  }
  return completed;
}

/**
 * What applying a passenger's change needs: the settings (for its e-mails and its cut-off), the site's address, and
 * the clock the cut-off is read by (the app's; the time now when not given).
 */
export interface ChangeSite { settings: () => Promise<Settings>; siteUrl: string; now?: () => Date }

const changeDeps = async (site: ChangeSite) => ({ settings: await site.settings(), siteUrl: site.siteUrl, now: site.now?.() ?? new Date() });

/**
 * Issue 27: a change whose difference was paid while no one was told (the browser closed, the webhook lost) is
 * applied, once, as its completion or webhook would have applied it.
 */
async function reconcilePaidChanges(db: Db, cards: CardProvider, site: ChangeSite): Promise<number> {
  const waiting = await db.query<{ payment_intent_id: string }>(
    `SELECT payment_intent_id FROM booking_changes
      WHERE status = 'awaiting_payment' AND payment_intent_id IS NOT NULL AND created_at > now() - interval '7 days' ORDER BY id LIMIT 500`);
  let applied = 0;
  for (const { payment_intent_id } of waiting) {
    try {
      const pi = await (await cards.stripe()).paymentIntents.retrieve(payment_intent_id);
      if (pi.status !== 'succeeded') continue;
      const deps = await changeDeps(site);
      const { outcome, refundIds } = await db.transaction((tx) => applyPaidChange(tx, deps, pi));
      await makeRefunds(db, cards, refundIds);
      if (outcome === 'applied') applied++;
    } catch (err) {
      console.error(`Could not check the payment ${payment_intent_id} of a change: ${(err as Error).message}`);
    }
  }
  return applied;
}

/** POST /api/v1/stripe/webhook: a signed event, handled once (its id is recorded in the same transaction). */
export async function handleWebhook(
  db: Db, cards: CardProvider, rawBody: string, signature: string | undefined, site: ChangeSite,
): Promise<'handled' | 'duplicate' | 'ignored'> {
  let event: Stripe.Event;
  try {
    event = await (await cards.stripe()).webhooks.constructEventAsync(rawBody, signature ?? '', cards.webhookSecret);
  } catch (err) {
    throw new DomainError('malformed', `Webhook signature check failed: ${(err as Error).message}`, 'Stripe-Signature');
  }
  const pi = event.data.object as Stripe.PaymentIntent;
  // A change's difference (issue 27) is applied as its booking would be completed: once, in the event's transaction.
  const change = event.type === 'payment_intent.succeeded' && pi.metadata?.change_id ? await changeDeps(site) : null;
  let refundIds: number[] = [];
  const outcome = await db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event.id, event.type))) return 'duplicate';
    if (event.type !== 'payment_intent.succeeded') return 'ignored';
    if (change) refundIds = (await applyPaidChange(tx, change, pi)).refundIds;
    else await completeCardBooking(tx, pi);
    return 'handled';
  });
  // The event is handled (recorded): a refund that cannot be made now stays for the console's Retry.
  await makeRefunds(db, cards, refundIds).catch((err) => console.error(`A change's refund was not made now: ${(err as Error).message}`));
  return outcome;
}
