// Issue 26 part 1: every confirmed booking reaches the office (OPERATOR_EMAIL, else FROM_EMAIL) and the company whose
// vehicle was booked, through the mail queue, with what they need to run the job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, storedMessages, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { officeRecipients } from '../../src/server/bookings/bookings';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const bookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes',
  baby_seats: 1, pickup_fight_number: 'BA0286',
};

/** A guest booking of one company's saloon, paid in the car; `someoneElse` books it for another passenger. */
async function book(company: string, someoneElse = false) {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  const vehicle = body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
  expect(vehicle, `a saloon of ${company}`).toBeDefined();
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm,
    registrationData: {
      firstName: 'Oliver', surname: 'Bennett', number: '+44 770 090 123', email: 'oliver.bennett@example.com',
      ...(someoneElse ? {
        passengerDetails: 'yes', passengerName: 'Ruth', passengerLastname: 'Bennett', passengerEmail: 'ruth.bennett@example.com',
        passengerPhone: '+44 770 090 456',
      } : {}),
    },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const noticesOf = (bookingId: number) => storedMessages(t.db, bookingId, 'new_booking_notice');

describe('a new booking', () => {
  it('is told to the office and to the company that drives it, with every detail the job needs', async () => {
    const data = await book('Metro Cars London');
    const ref = data.booking.booking_number;
    const notices = await noticesOf(data.booking.id);
    // One message: to the office, with the company in copy.
    expect(notices.map((n) => [n.to_address, n.cc_address, n.status])).toEqual([
      ['bookings@albion-executive.co.uk', 'dispatch@metrocars.london', 'pending'],
    ]);
    const [n] = notices;
    expect(n.subject).toMatch(new RegExp(`^New booking ${ref}: 12-09-2030 7:15 AM, Heathrow Airport Terminal 5`));
    // Replies go to the person who booked.
    expect(n.reply_to).toBe('oliver.bennett@example.com');
    for (const text of [
      ref, 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', 'Trafalgar Square, London WC2N 5DN', '12-09-2030', '7:15 AM', 'BA 286',
      'Oliver Bennett', 'oliver.bennett@example.com', '+44 770 090 123', 'Saloon', 'Metro Cars London',
      // Extras and their prices (each line of the price), the payment and where it stands.
      'Meet and Greet', 'Baby seats', 'Pay in Car', 'To be paid in the car', `£${data.booking.total_booking_amount}`,
      `${TEST_SITE_URL}/operator/bookings/${ref}`,
    ]) expect(n.body_text, text).toContain(text);
    const priceLines = (await t.db.query<{ price_breakdown: { lines: { label: string }[] } }>(
      'SELECT price_breakdown FROM bookings WHERE id = $1', [data.booking.id]))[0].price_breakdown.lines;
    for (const line of priceLines) expect(n.body_text).toContain(line.label);

    // Through the queue, as any message: sent, and not again.
    await t.mail.deliverDue();
    expect(t.mailbox.sent.filter((m) => m.subject.startsWith(`New booking ${ref}`)).map((m) => [m.to, m.cc]))
      .toEqual([['bookings@albion-executive.co.uk', 'dispatch@metrocars.london']]);
    await t.mail.deliverDue();
    expect(t.mailbox.sent.filter((m) => m.subject.startsWith(`New booking ${ref}`))).toHaveLength(1);
  });

  it('names who booked when it was booked for someone else', async () => {
    const data = await book('Metro Cars London', true);
    const [n] = await noticesOf(data.booking.id);
    for (const text of ['Ruth Bennett', 'ruth.bennett@example.com', '+44 770 090 456', 'Booked by', 'Oliver Bennett',
      'oliver.bennett@example.com', '+44 770 090 123']) expect(n.body_text, text).toContain(text);
    expect(n.reply_to).toBe('oliver.bennett@example.com');
  });

  it('goes to the office once when the office drives it itself', async () => {
    const data = await book('Albion Executive Cars');
    expect((await noticesOf(data.booking.id)).map((n) => [n.to_address, n.cc_address])).toEqual([['bookings@albion-executive.co.uk', null]]);
  });

  it('goes to OPERATOR_EMAIL when the operator set one', async () => {
    await setSetting(t.db, 'OPERATOR_EMAIL', 'desk@albion-executive.co.uk');
    try {
      const data = await book('Metro Cars London');
      expect((await noticesOf(data.booking.id)).map((n) => [n.to_address, n.cc_address])).toEqual([['desk@albion-executive.co.uk', 'dispatch@metrocars.london']]);
      // The office's own inbox is the server's to read: never sent to browsers.
      const settings = (await t.call('GET', '/setting')).body as { setting_name: string }[];
      expect(settings.some((s) => s.setting_name === 'GRACE_TIME')).toBe(true);
      expect(settings.some((s) => s.setting_name === 'OPERATOR_EMAIL')).toBe(false);
    } finally {
      await setSetting(t.db, 'OPERATOR_EMAIL', '');
    }
  });
});

describe('who hears of a booking besides the passenger', () => {
  it('is the office (OPERATOR_EMAIL, else FROM_EMAIL, else Company_Email) and the company, each once', () => {
    expect(officeRecipients({ FROM_EMAIL: 'from@a.uk', Company_Email: 'info@a.uk' }, 'cars@b.uk')).toEqual({ to: 'from@a.uk', cc: 'cars@b.uk' });
    expect(officeRecipients({ OPERATOR_EMAIL: ' desk@a.uk ', FROM_EMAIL: 'from@a.uk' }, '')).toEqual({ to: 'desk@a.uk', cc: null });
    expect(officeRecipients({ Company_Email: 'info@a.uk' }, ' INFO@a.uk ')).toEqual({ to: 'info@a.uk', cc: null });
    expect(officeRecipients({}, '')).toEqual({ to: 'bookings@localhost', cc: null });
  });
});
