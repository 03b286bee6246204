// The test gateway's webhooks: events signed as Stripe signs them
// (`Stripe-Signature: t=<seconds>,v1=<HMAC-SHA256 of "t.payload">`), delivered
// at least once, retried with growing pauses while the endpoint fails.
import { createHmac } from 'node:crypto';

export type WebhookDelivery = (payload: string, signature: string) => Promise<boolean>;

export function signPayload(payload: string, secret: string, seconds = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${seconds}.${payload}`).digest('hex');
  return `t=${seconds},v1=${v1}`;
}

/** Pauses before the 2nd, 3rd, ... attempt (Stripe retries for days; a local gateway gives up sooner). */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

export class WebhookSender {
  private inFlight = new Set<Promise<void>>();
  private timers = new Set<NodeJS.Timeout>();

  constructor(private secret: string, private deliver: WebhookDelivery | null) {}

  send(event: object): void {
    if (!this.deliver) return;
    const payload = JSON.stringify(event, null, 2);
    this.attempt(payload, 0);
  }

  private attempt(payload: string, n: number): void {
    const run = (async () => {
      let ok = false;
      try {
        ok = await this.deliver!(payload, signPayload(payload, this.secret));
      } catch {
        ok = false;
      }
      if (!ok && n < RETRY_DELAYS_MS.length) {
        const timer = setTimeout(() => { this.timers.delete(timer); this.attempt(payload, n + 1); }, RETRY_DELAYS_MS[n]);
        timer.unref();
        this.timers.add(timer);
      }
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Resolves once no delivery is under way (retries waiting on a timer do not count). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
