// Outgoing mail and texts are one table (SMS since issue 41: channel 'sms'): a
// message is written in the same transaction as what it is about, then sent. A sender claims one message at a time with a
// lease; a lease that runs out (the process died while sending) makes the
// message claimable again, so a crash strands nothing. Failures are retried
// with growing pauses and, after the last attempt, marked failed and logged.
import type { Db, Queryable } from '../db/index';
import type { MailTransport } from './transport';
import { SmsRefused, type SmsTransport } from './sms';
import { timed, timedSync } from '../timing';
import { renderStored } from './templates';
import { referenceSettings } from '../reference/referenceData';
import type { Settings } from '../../domain/settings';

export interface NewEmail {
  kind: 'booking_confirmation' | 'new_booking_notice' | 'manage_link' | 'driver_assigned' | 'driver_job' | 'booking_cancelled' | 'booking_change_notice' | 'booking_changed' | 'quote_request' | 'contact_message' | 'password_reset' | 'email_changed' | 'pickup_moved'
    /** Issue 43 §3: a complaint or lost property entry closed, its outcome to the complainant or the owner. */
    | 'casework_closed'
    /** Issue 43 §1: a booking taken by phone, its card payment link to the passenger. */
    | 'payment_link'
    /** Issue 44: an account's monthly invoice, to its billing address. */
    | 'account_invoice';
  to: string; cc?: string; replyTo?: string; subject: string; text: string; html: string; bookingId?: number;
  /** The body holds a secret (a reset code): erase it once the message is sent or given up. */
  eraseAfterSend?: boolean;
  /** Written now but not sent until released (a card booking's confirmation waits for the payment). */
  held?: boolean;
}

export async function enqueueEmail(tx: Queryable, e: NewEmail): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO outbound_emails (kind, to_address, cc_address, reply_to, subject, body_text, body_html, booking_id, erase_after_send, status)
     VALUES ($1, $2, $10, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [e.kind, e.to, e.replyTo ?? null, e.subject, e.text, e.html, e.bookingId ?? null, e.eraseAfterSend ?? false,
      e.held ? 'held' : 'pending', e.cc ?? null],
  );
  return row.id;
}

export interface NewSms {
  kind: 'driver_job' | 'driver_job_taken' | 'driver_assigned_sms' | 'driver_on_way' | 'driver_arrived' | 'journey_completed' | 'driver_sign_in_code' | 'booking_cancelled_sms' | 'pickup_moved_sms'
    /** Issue 43 §1: the card payment link of a booking taken by phone. */
    | 'payment_link_sms';
  /** E.164. */
  to: string;
  /** What the console's lists call it (e.g. "New job BK-..."). */
  label: string;
  /** The words, within two segments (src/domain/sms.ts fitSms). */
  text: string;
  bookingId?: number;
  /** The text holds a secret (a sign-in code): erased once sent or given up. */
  eraseAfterSend?: boolean;
}

/** Writes a text in the queue, in the caller's transaction (issue 41 §4). */
export async function enqueueSms(tx: Queryable, m: NewSms): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO outbound_emails (channel, kind, to_address, subject, body_text, body_html, booking_id, erase_after_send, status)
     VALUES ('sms', $1, $2, $3, $4, '', $5, $6, 'pending') RETURNING id`,
    [m.kind, m.to, m.label, m.text, m.bookingId ?? null, m.eraseAfterSend ?? false]);
  return row.id;
}

/** Sends a booking's held messages (once: only 'held' rows change). */
export async function releaseHeldEmails(tx: Queryable, bookingId: number): Promise<number> {
  const rows = await tx.query(
    "UPDATE outbound_emails SET status = 'pending', next_attempt_at = now() WHERE booking_id = $1 AND status = 'held' RETURNING id", [bookingId]);
  return rows.length;
}

/** Minutes to wait after the 1st, 2nd, ... failed attempt; after the last, the message is failed. */
export const RETRY_MINUTES = [1, 5, 30, 120, 720];
/** How long a claimed message is the claimer's alone. Longer than the longest send (SEND_TIMEOUT_MS). */
export const LEASE_SECONDS = 60;
/** A send that takes longer counts as failed (and is retried), so it always ends inside its lease. */
export const SEND_TIMEOUT_MS = 30_000;
/** Messages claimed by one statement. */
export const CLAIM_BATCH = 20;

/**
 * How long the sender yields to the site's requests at most (issue 40): under load it claims nothing while requests are
 * being answered, and once it has waited this long it sends in its turn whatever the load, until the site is quiet again.
 */
export const MAX_YIELD_MS = 30_000;

export interface QueueTiming {
  leaseSeconds: number;
  sendTimeoutMs: number;
  /** Milliseconds on a clock that only goes forward (performance.now); a test gives its own. */
  clock: () => number;
  /** Whether the site is under load now (http/load.ts underLoad); a queue without it never yields. */
  busy: () => boolean;
  maxYieldMs: number;
  /** Waits this long before looking at the load again. */
  pause: (ms: number) => Promise<void>;
}
const DEFAULT_TIMING: QueueTiming = {
  leaseSeconds: LEASE_SECONDS, sendTimeoutMs: SEND_TIMEOUT_MS, clock: () => performance.now(), busy: () => false, maxYieldMs: MAX_YIELD_MS,
  pause: (ms) => new Promise((resolve) => { setTimeout(resolve, ms); }),
};

interface Row {
  id: number; channel: 'email' | 'sms'; message_key: string; created_at: Date; to_address: string; cc_address: string | null; reply_to: string | null; subject: string;
  body_text: string; body_html: string; attempts: number;
  /** A message written as what it is made from (a booking's confirmation and notice, issue 40): rendered when sent. */
  template: string | null; template_data: string | null;
}

/** Each claim raises `attempts`, so (id, attempts) names one claim: a sender whose lease ran out and was claimed again changes nothing. */
const STILL_OURS = "id = $1 AND attempts = $2 AND status = 'sending'";
const ERASE_IF_SECRET = "body_text = CASE WHEN erase_after_send THEN '' ELSE body_text END, body_html = CASE WHEN erase_after_send THEN '' ELSE body_html END, "
  + 'template_data = CASE WHEN erase_after_send THEN NULL ELSE template_data END';

/** The claim of a batch ($1: the lease in seconds, $2: the batch); see MailQueue.claimBatch. */
export const CLAIM_SQL = `WITH due AS (SELECT id FROM outbound_emails WHERE status = 'pending' AND next_attempt_at <= now()
                     LIMIT $2 FOR UPDATE SKIP LOCKED),
            lapsed AS (SELECT id FROM outbound_emails WHERE status = 'sending' AND lease_until < now()
                        LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE outbound_emails SET status = 'sending', attempts = attempts + 1, next_attempt_at = now(),
              lease_until = now() + make_interval(secs => $1)
        WHERE id IN (SELECT id FROM (SELECT id FROM due UNION ALL SELECT id FROM lapsed) c ORDER BY id LIMIT $2)
        RETURNING id, channel, message_key, created_at, to_address, cc_address, reply_to, subject, body_text, body_html, attempts, template, template_data`;

export class MailQueue {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private timing: QueueTiming;
  /** When the sender began to yield to a load that has not let up since (null: the site is quiet). */
  private yieldingSince: number | null = null;
  private stopping = false;

  private sms: SmsTransport | null;

  /** `options.sms` sends the texts (issue 41); without it a text waits, as with a transport that is down. */
  constructor(private db: Db, private transport: MailTransport, private from: () => Promise<string>,
    private log: (line: string) => void = console.log, options: Partial<QueueTiming> & { sms?: SmsTransport } = {}) {
    const { sms, ...timing } = options;
    this.timing = { ...DEFAULT_TIMING, ...timing };
    this.sms = sms ?? null;
  }

  /** Whether a message's transport takes a repeat as its first copy (the outbox folders). */
  private repeatSafe(m: Row): boolean {
    return Boolean(m.channel === 'sms' ? this.sms?.repeatSafe : this.transport.repeatSafe);
  }

  /** Sends what is due now (and what a dead sender left behind); returns how many were sent. Concurrent calls share one run. */
  deliverDue(): Promise<number> {
    this.running ??= this.run().finally(() => { this.running = null; });
    return this.running;
  }

  /**
   * Claims up to CLAIM_BATCH due messages in one statement, each with its own lease (decision 29; one at a time was
   * decision 11). Each is marked sent on its own as soon as it is handed over (decision 34), or the outbox's batch
   * together (issue 40). The due messages and those whose lease ran out are each found by their own index, a batch's
   * worth and no more, and the oldest of those are claimed: ordering every due message by id before taking a batch
   * made each claim read and sort the whole backlog (9 ms a claim at 16,000 messages on PGlite, whose tables have no
   * statistics to plan by), so sending what a 10 s load left took a minute (issue 40). Which batch goes first no
   * longer follows the ids exactly; every due message goes in the same run.
   */
  private async claimBatch(): Promise<Row[]> {
    const rows = await this.db.query<Row>(CLAIM_SQL,
      [this.timing.leaseSeconds, CLAIM_BATCH], { prepare: true });
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Claims as (id, attempts) pairs, as one JSON parameter. */
  private static claims(rows: Row[]): string {
    return JSON.stringify(rows.map((m) => ({ id: m.id, attempts: m.attempts })));
  }

  private async run(): Promise<number> {
    let sent = 0;
    let from: string | null = null;
    let settings: Settings | null = null;
    for (;;) {
      await this.yieldToRequests();
      // Read before the claim: its lease starts later, so the time left is never overestimated.
      const claimedAt = this.timing.clock();
      const batch = await timed('mail 1 claim a batch', () => this.claimBatch());
      if (!batch.length) return sent;
      from ??= await this.from();
      const sender = from;
      // The settings a stored message is rendered with: those of the moment (reference data, held in memory).
      if (batch.some((m) => m.template)) settings ??= await referenceSettings(this.db);
      // Messages whose repeats replace their first copy (the outboxes) are handed over all at once, each within its
      // send timeout and so inside the lease, and marked sent together (issue 40); the others one by one, below.
      const together = batch.filter((m) => this.repeatSafe(m));
      const oneByOne = batch.filter((m) => !this.repeatSafe(m));
      if (together.length) {
        const outcomes = await Promise.allSettled(together.map((m) => this.handOver(m, sender, settings)));
        const handedOver = together.filter((_, i) => outcomes[i].status === 'fulfilled');
        for (const [i, o] of outcomes.entries()) if (o.status === 'rejected') await this.failed(together[i], o.reason);
        if (handedOver.length) {
          await this.db.query(
            `UPDATE outbound_emails SET status = 'sent', sent_at = now(), last_error = NULL, lease_until = NULL, ${ERASE_IF_SECRET}
              WHERE status = 'sending' AND (id, attempts) IN (SELECT id, attempts FROM json_to_recordset($1::json) AS c(id int, attempts int))`,
            [MailQueue.claims(handedOver)], { prepare: true });
        }
        sent += handedOver.length;
      }
      for (const [i, m] of oneByOne.entries()) {
        // A live sender never outlives its lease: what could not be sent before the lease ends is given back, unspent.
        if (i > 0 && this.timing.clock() - claimedAt + this.timing.sendTimeoutMs >= this.timing.leaseSeconds * 1000) {
          await this.db.query(
            `UPDATE outbound_emails SET status = 'pending', attempts = attempts - 1, lease_until = NULL
              WHERE status = 'sending' AND (id, attempts) IN (SELECT id, attempts FROM json_to_recordset($1::json) AS c(id int, attempts int))`,
            [MailQueue.claims(oneByOne.slice(i))]);
          break;
        }
        let providerId: string | null = null;
        try {
          providerId = (await this.handOver(m, sender, settings)).providerId ?? null;
        } catch (err) {
          await this.failed(m, err);
          continue;
        }
        // Marked as soon as it is handed over (issue 24): a crash now repeats no message but, at most, the one in hand.
        await this.db.query(
          `UPDATE outbound_emails SET status = 'sent', sent_at = now(), last_error = NULL, lease_until = NULL, provider_id = coalesce($3, provider_id),
                  ${ERASE_IF_SECRET}
            WHERE ${STILL_OURS}`, [m.id, m.attempts, providerId], { prepare: true });
        sent++;
      }
    }
  }

  /**
   * Renders a stored message (issue 40) and hands it to its transport, failing after the send timeout. A text to a
   * number that opted out is refused here, never handed over.
   */
  private async handOver(m: Row, from: string, settings: Settings | null): Promise<{ providerId?: string }> {
    if (m.channel === 'sms') {
      if (!this.sms) throw new Error('no SMS transport');
      const [stop] = await this.db.query('SELECT 1 FROM sms_opt_outs WHERE phone = $1', [m.to_address]);
      if (stop) throw new SmsRefused('the number has opted out of texts (STOP)', false);
      const sms = this.sms;
      return timed('mail 3 hand one message to the transport', () => withTimeout(sms.send({
        key: m.message_key, createdAt: new Date(m.created_at), to: m.to_address, text: m.body_text,
      }), this.timing.sendTimeoutMs));
    }
    const body = m.template
      ? timedSync('mail 2 render a stored message', () => renderStored(m.template!, m.template_data ?? '', settings!))
      : { subject: m.subject, text: m.body_text, html: m.body_html };
    await timed('mail 3 hand one message to the transport', () => withTimeout(this.transport.send({
      key: m.message_key, createdAt: new Date(m.created_at), from,
      to: m.to_address, cc: m.cc_address ?? undefined, replyTo: m.reply_to ?? undefined, subject: body.subject, text: body.text, html: body.html,
    }), this.timing.sendTimeoutMs));
    return {};
  }

  /**
   * Under load, waits before claiming until the site's requests are answered (issue 40): on the embedded database
   * every statement, render and file of the sender takes the thread the visitors' answers need. Nothing is claimed
   * meanwhile, so nothing waits under a lease. Bounded: once it has yielded for maxYieldMs without a quiet moment it
   * sends in its turn, so a message waits at most that long however long the load lasts.
   */
  private async yieldToRequests(): Promise<void> {
    for (;;) {
      if (this.stopping || !this.timing.busy()) {
        this.yieldingSince = null;
        return;
      }
      const now = this.timing.clock();
      this.yieldingSince ??= now;
      if (now - this.yieldingSince >= this.timing.maxYieldMs) return;
      await this.timing.pause(20);
    }
  }

  /**
   * A message not handed over: tried again later, or failed for good after the last attempt or when the provider will
   * never take it (SmsRefused; a number that opted out is recorded).
   */
  private async failed(m: Row, error: unknown): Promise<void> {
    const reason = (error as Error)?.message ?? String(error);
    const never = error instanceof SmsRefused;
    if (never && error.optedOut) {
      await this.db.query("INSERT INTO sms_opt_outs (phone, source) VALUES ($1, 'provider') ON CONFLICT (phone) DO NOTHING", [m.to_address]);
    }
    const wait = never ? undefined : RETRY_MINUTES[m.attempts - 1];
    if (wait === undefined) {
      await this.db.query(
        `UPDATE outbound_emails SET status = 'failed', last_error = $3, lease_until = NULL, ${ERASE_IF_SECRET} WHERE ${STILL_OURS}`,
        [m.id, m.attempts, reason]);
      this.log(`MAIL FAILED for good: #${m.id} to ${m.to_address} "${m.subject}" after ${m.attempts} attempts: ${reason}`);
    } else {
      await this.db.query(
        `UPDATE outbound_emails SET status = 'pending', last_error = $3, lease_until = NULL,
           next_attempt_at = now() + make_interval(mins => $4) WHERE ${STILL_OURS}`, [m.id, m.attempts, reason, wait]);
      this.log(`Mail #${m.id} to ${m.to_address} not sent (${reason}); retrying in ${wait} min`);
    }
  }

  /**
   * Starts the background sender. The embedded database belongs to this process
   * alone, so whatever it shows as 'sending' was left by a crash and goes out at
   * once; on PostgreSQL other servers may be sending, so their leases are waited out.
   */
  async start(intervalMs = 15_000): Promise<void> {
    if (this.db.kind === 'pglite') {
      await this.db.query("UPDATE outbound_emails SET status = 'pending', lease_until = NULL WHERE status = 'sending'");
    }
    this.timer = setInterval(() => { this.kick(); }, intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Try now, in the background: a request never waits for the mail server. */
  kick(): void {
    this.deliverDue().catch((err) => this.log(`Mail delivery run failed: ${(err as Error).message}`));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  describe(): string { return this.transport.description; }

  /** Where texts go (issue 41). */
  describeSms(): string { return this.sms?.description ?? 'nowhere (no SMS transport)'; }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the mail server within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
