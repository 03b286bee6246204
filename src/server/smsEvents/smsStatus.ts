// Twilio's delivery reports of the texts it was given (issue 41 §4, decision 55): its status callback, a form POST
// signed with the account's auth token (X-Twilio-Signature, checked with the official package's validateRequest over
// the site's own address of this route), so mounted outside the API-key check (../app.ts). A report moves a text's
// delivery status forward only (reports may come out of order); a number that opted out (error 21610) is recorded and
// never texted again. Without Twilio there are no reports: the route is not found.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from '../http/answers';
import type { AppEnv } from '../deps';

/** A report is a few hundred bytes. */
const MAX_REPORT_BYTES = 16 * 1024;

/**
 * How far along a text is, by Twilio's MessageStatus: a report of an earlier step never undoes a later one, and a final
 * one (4: delivered, undelivered, failed) is never replaced by another final one (a replayed report).
 */
export const DELIVERY_RANK: Record<string, number> = {
  accepted: 1, scheduled: 1, queued: 1, sending: 2, sent: 3, delivered: 4, undelivered: 4, failed: 4, canceled: 4, read: 5,
};

export const smsStatusRoutes = new Hono<AppEnv>().post(
  '/sms/status',
  bodyLimit({ maxSize: MAX_REPORT_BYTES, onError: (c) => c.json(errorBody('Too large'), 413) }),
  async (c) => {
    const { deps } = c.var;
    if (!deps.smsReports) return c.json(errorBody('Not found'), 404);
    const form = new URLSearchParams(await c.req.text());
    const params = Object.fromEntries(form);
    const { validateRequest } = (await import('twilio')).default;
    const signature = c.req.header('X-Twilio-Signature') ?? '';
    if (!signature || !validateRequest(deps.smsReports.authToken, signature, `${deps.siteUrl}/api/v1/sms/status`, params)) {
      return c.json(errorBody('The report is not signed by our Twilio account.'), 403);
    }
    const sid = params.MessageSid ?? params.SmsSid ?? '';
    const status = (params.MessageStatus ?? params.SmsStatus ?? '').toLowerCase();
    if (!/^[A-Za-z0-9]{10,64}$/.test(sid) || !(status in DELIVERY_RANK)) return c.json(errorBody('Not a delivery report.'), 422);
    const error = params.ErrorCode ? `Twilio ${params.ErrorCode}` : null;
    const [text] = await deps.db.query<{ to_address: string }>(
      `UPDATE outbound_emails SET delivery_status = $2, delivery_error = $3,
              delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END
        WHERE provider_id = $1 AND channel = 'sms'
          AND (coalesce((SELECT r.rank FROM json_each_text($4::json) r(status, rank) WHERE r.status = delivery_status)::int, 0) < $5
               OR (delivery_status = $2 AND $5 < 4))
        RETURNING to_address`, [sid, status, error, JSON.stringify(DELIVERY_RANK), DELIVERY_RANK[status]]);
    // A number's opt-out is believed from a report that moved a text forward, not from one replayed after its delivery.
    if (text && params.ErrorCode === '21610') {
      await deps.db.query("INSERT INTO sms_opt_outs (phone, source) VALUES ($1, 'delivery report') ON CONFLICT (phone) DO NOTHING", [text.to_address]);
    }
    // Twilio wants a 2xx; an unknown text (another system's, or long since purged) is no error of its.
    return c.body(null, 204);
  },
);
