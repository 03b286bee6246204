// Outgoing mail is a table: a message is written in the same transaction as
// what it is about, then sent. Failures are retried with growing pauses and,
// after the last attempt, marked failed and reported in the log.
import type { Db, Queryable } from '../db/index';
import type { MailTransport } from './transport';

export interface NewEmail {
  kind: 'booking_confirmation' | 'quote_request' | 'contact_message' | 'password_reset';
  to: string; replyTo?: string; subject: string; text: string; html: string; bookingId?: number;
}

export async function enqueueEmail(tx: Queryable, e: NewEmail): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO outbound_emails (kind, to_address, reply_to, subject, body_text, body_html, booking_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [e.kind, e.to, e.replyTo ?? null, e.subject, e.text, e.html, e.bookingId ?? null],
  );
  return row.id;
}

/** Minutes to wait after the 1st, 2nd, ... failed attempt; after the last, the message is failed. */
export const RETRY_MINUTES = [1, 5, 30, 120, 720];

interface Row { id: number; to_address: string; reply_to: string | null; subject: string; body_text: string; body_html: string; attempts: number }

export class MailQueue {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private db: Db, private transport: MailTransport, private from: () => Promise<string>,
    private log: (line: string) => void = console.log) {}

  /** Sends what is due now; returns how many were sent. Concurrent calls share one run. */
  deliverDue(): Promise<number> {
    this.running ??= this.run().finally(() => { this.running = null; });
    return this.running;
  }

  private async run(): Promise<number> {
    let sent = 0;
    for (;;) {
      const due = await this.db.query<Row>(
        `UPDATE outbound_emails SET status = 'sending', attempts = attempts + 1, next_attempt_at = now()
          WHERE id IN (SELECT id FROM outbound_emails WHERE status = 'pending' AND next_attempt_at <= now()
                        ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, reply_to, subject, body_text, body_html, attempts`,
      );
      if (!due.length) return sent;
      const from = await this.from();
      for (const m of due) {
        try {
          await this.transport.send({ from, to: m.to_address, replyTo: m.reply_to ?? undefined, subject: m.subject, text: m.body_text, html: m.body_html });
          await this.db.query("UPDATE outbound_emails SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = $1", [m.id]);
          sent++;
        } catch (err) {
          const wait = RETRY_MINUTES[m.attempts - 1];
          const reason = (err as Error).message;
          if (wait === undefined) {
            await this.db.query("UPDATE outbound_emails SET status = 'failed', last_error = $2 WHERE id = $1", [m.id, reason]);
            this.log(`MAIL FAILED for good: #${m.id} to ${m.to_address} "${m.subject}" after ${m.attempts} attempts: ${reason}`);
          } else {
            await this.db.query(
              `UPDATE outbound_emails SET status = 'pending', last_error = $2,
                 next_attempt_at = now() + make_interval(mins => $3) WHERE id = $1`, [m.id, reason, wait]);
            this.log(`Mail #${m.id} to ${m.to_address} not sent (${reason}); retrying in ${wait} min`);
          }
        }
      }
    }
  }

  /** Starts the background sender; messages left 'sending' by a crash go back to pending. */
  async start(intervalMs = 15_000): Promise<void> {
    await this.db.query(
      "UPDATE outbound_emails SET status = 'pending' WHERE status = 'sending' AND next_attempt_at < now() - interval '10 minutes'");
    this.timer = setInterval(() => { this.kick(); }, intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Try now, in the background: a request never waits for the mail server. */
  kick(): void {
    this.deliverDue().catch((err) => this.log(`Mail delivery run failed: ${(err as Error).message}`));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  describe(): string { return this.transport.description; }
}
