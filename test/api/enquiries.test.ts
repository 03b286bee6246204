// Quote requests and contact messages: stored, then e-mailed to the operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const quote = {
  pickup_address: 'Bath City Centre, Abbey Churchyard, Bath BA1 1LT', dropoff_address: 'Bristol Airport, Lulsgate Bottom, Bristol BS48 3DY',
  pickup_date: '2030-05-02', pickup_time: '07:45', passenger_email: 'mia@example.com', passenger_phone: 447700900123,
  passenger_name: 'Mia Clarke', additional_info: 'Two golf bags', passengers: 3, luggages: 4,
};

describe('POST /send-instant-email', () => {
  it('stores the quote request and sends it to the operator with the visitor as reply-to', async () => {
    const res = await t.call('POST', '/send-instant-email', quote);
    expect(res).toEqual({ status: 200, body: { success: true, message: 'Your booking has been sent!' } });
    const [row] = await t.db.query<any>('SELECT passenger_phone, passengers FROM quote_requests');
    expect(row).toEqual({ passenger_phone: '+447700900123', passengers: 3 });
    expect(await t.mail.deliverDue()).toBe(1);
    const m = t.mailbox.sent.at(-1)!;
    expect(m).toMatchObject({ to: 'bookings@albion-executive.co.uk', replyTo: 'mia@example.com' });
    expect(m.subject).toContain('Bath City Centre');
    expect(m.text).toContain('02-05-2030');
    expect(m.text).toContain('7:45 AM');
    expect(m.text).toContain('Two golf bags');
  });

  it.each([
    [{ pickup_date: undefined }, 'pickup_date'],
    [{ pickup_time: '7pm' }, 'pickup_time'],
    [{ passenger_email: '' }, 'passenger_email'],
    [{ passenger_phone: '' }, 'passenger_phone'],
    [{ passengers: 0 }, 'passengers'],
    [{ luggages: 21 }, 'luggages'],
  ])('applies the quote form rules (%#)', async (change, field) => {
    const res = await t.call('POST', '/send-instant-email', { ...quote, ...change });
    expect([res.status, res.body.field]).toEqual([422, field]);
  });
});

describe('POST /contact-us', () => {
  const message = {
    firstName: 'Noah', lastName: 'Patel', email: 'noah@example.com', telephone: 7700900456, queryReason: 'Lost Item',
    bookingNumber: '', comments: 'I left an umbrella in the car.',
  };

  it('stores the message and e-mails it to the operator', async () => {
    const res = await t.call('POST', '/contact-us', message);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Your form has been submitted successfully!. Thank You for Contacting');
    await t.mail.deliverDue();
    const m = t.mailbox.sent.at(-1)!;
    expect(m.subject).toBe('Contact form #1: Lost Item from Noah Patel');
    expect(m.text).toContain('umbrella');
  });

  it('answers a bad message with the reason in the error field', async () => {
    const res = await t.call('POST', '/contact-us', { ...message, queryReason: 'Praise' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(res.body.message);
    expect(res.body.error).toContain('queryReason');
    const unreachable = await t.call('POST', '/contact-us', { ...message, email: '', telephone: '' });
    expect(unreachable.body.error).toContain('so we can reply');
  });
});
