// Quote requests (POST /send-instant-email) and contact messages (POST /contact-us):
// stored, then e-mailed to the operator with the visitor as reply-to. A filled honeypot is answered as sent and
// dropped; otherwise each is counted per client address first (limits.ts).
import { Hono, type Context } from 'hono';
import { ContactForm, QuoteRequest } from '../../domain/schemas';
import { readBody } from '../http/body';
import { QUOTE_SENT } from '../../domain/messages';
import { isHoneypotFilled } from '../../domain/contactSchemas';
import { takeAllowance } from '../limits';
import { clientAddress } from '../http/clientAddress';
import { enqueueEmail } from '../mail/queue';
import { contactMail, quoteRequestMail } from '../mail/templates';
import { loadSettings, operatorEmail, type AppDeps } from '../deps';

const CONTACT_SENT = 'Your form has been submitted successfully!. Thank You for Contacting';

export function enquiryRoutes(deps: AppDeps) {
  const count = (c: Context, limit: 'quoteRequests' | 'contactMessages') =>
    takeAllowance(deps.db, deps.security.limits, [{ limit, key: clientAddress(c, deps.security.trustProxy) }]);
  return new Hono()
    .post('/send-instant-email', async (c) => {
      const q = await readBody(c, QuoteRequest);
      if (isHoneypotFilled(q)) return c.json({ success: true, message: QUOTE_SENT });
      await count(c, 'quoteRequests');
      const to = operatorEmail(await loadSettings(deps.db));
      await deps.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO quote_requests (pickup_address, dropoff_address, pickup_date, pickup_time, passenger_name,
             passenger_email, passenger_phone, passengers, luggages, additional_info)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
          [q.pickup_address, q.dropoff_address, q.pickup_date, q.pickup_time, q.passenger_name, q.passenger_email,
            q.passenger_phone, q.passengers, q.luggages, q.additional_info],
        );
        await enqueueEmail(tx, { kind: 'quote_request', to, replyTo: q.passenger_email, ...quoteRequestMail(q, row.id) });
      });
      deps.mail.kick();
      return c.json({ success: true, message: QUOTE_SENT });
    })
    .post('/contact-us', async (c) => {
      const m = await readBody(c, ContactForm);
      if (isHoneypotFilled(m)) return c.json({ success: true, message: CONTACT_SENT });
      await count(c, 'contactMessages');
      const to = operatorEmail(await loadSettings(deps.db));
      await deps.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO contact_messages (first_name, last_name, email, telephone, query_reason, booking_number, comments)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [m.firstName, m.lastName, m.email, m.telephone, m.queryReason, m.bookingNumber, m.comments],
        );
        await enqueueEmail(tx, { kind: 'contact_message', to, replyTo: m.email || undefined, ...contactMail(m, row.id) });
      });
      deps.mail.kick();
      return c.json({ success: true, message: CONTACT_SENT });
    });
}
