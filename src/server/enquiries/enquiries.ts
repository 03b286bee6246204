// Quote requests and contact messages: each stored and its e-mail to the operator queued in one transaction, with the
// visitor as reply-to (at least once, never lost: mail/queue.ts). A message about a complaint or a lost item also opens
// its entry in Complaints or Lost property in that transaction (issue 43 §3: ../casework).
import type { Db } from '../db/index';
import type { ContactForm, QuoteRequest } from '../../domain/schemas';
import { enqueueEmail } from '../mail/queue';
import { contactMail, quoteRequestMail } from '../mail/templates';
import { openFromContactMessage } from '../casework/entries';

export async function saveQuoteRequest(db: Db, q: QuoteRequest, operator: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO quote_requests (pickup_address, dropoff_address, pickup_date, pickup_time, passenger_name,
         passenger_email, passenger_phone, passengers, luggages, additional_info)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [q.pickup_address, q.dropoff_address, q.pickup_date, q.pickup_time, q.passenger_name, q.passenger_email,
        q.passenger_phone, q.passengers, q.luggages, q.additional_info],
    );
    await enqueueEmail(tx, { kind: 'quote_request', to: operator, replyTo: q.passenger_email, ...quoteRequestMail(q, row.id) });
  });
}

export async function saveContactMessage(db: Db, m: ContactForm, operator: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO contact_messages (first_name, last_name, email, telephone, query_reason, booking_number, comments)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [m.firstName, m.lastName, m.email, m.telephone, m.queryReason, m.bookingNumber, m.comments],
    );
    await openFromContactMessage(tx, row.id, m, now);
    await enqueueEmail(tx, { kind: 'contact_message', to: operator, replyTo: m.email || undefined, ...contactMail(m, row.id) });
  });
}
