// Decision 21, one price: with ROUND_OFF yes the server rounds each offer to whole pounds with a 'Rounding' line,
// and that amount is the one booked and e-mailed; with ROUND_OFF no every amount keeps its pence. Offers come
// cheapest first, those without a price last, and a vehicle without a price cannot be booked online.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEATHROW_TO_TRAFALGAR, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { penceToPounds, poundsToPence } from '../../src/domain/money';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

interface Detail {
  price: string; final_price: string; company_name: string; vehicle_type: string;
  breakdown: { final_price: string; lines: { code?: string; label: string; amount: string }[] };
}
const trip = { ...HEATHROW_TO_TRAFALGAR, meet_and_greet: 'yes', waiting_min: 10 };
const quote = async (body: object = trip): Promise<Detail[]> => (await t.call('POST', '/calculate-distance-price', body)).body.price_details;
const sumOfLines = (d: Detail) => d.breakdown.lines.reduce((s, l) => s + poundsToPence(l.amount), 0);
const priced = (ds: Detail[]) => ds.filter((d) => poundsToPence(d.price) > 0);

async function book(vehicle: Detail, quantity: number) {
  return t.call('POST', '/booking', {
    selectedVehicleData: vehicle, selectedVehicle: quantity, bookingType: 'milleage', bookingForm: trip, hourlyRateForm: null,
    registrationData: { firstName: 'Iris', surname: 'Vale', number: '07700 900123', email: `iris.${Math.random().toString(36).slice(2)}@example.com` },
    payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  });
}

describe('with ROUND_OFF yes (the demo operator)', () => {
  beforeAll(async () => { await setSetting(t.db, 'ROUND_OFF', 'yes'); });

  it('prices every offer in whole pounds, and the breakdown, with its Rounding line, adds up to that price', async () => {
    const details = priced(await quote());
    expect(details.length).toBeGreaterThan(3);
    for (const d of details) {
      expect(d.price).toMatch(/^\d+\.00$/);
      expect(d.final_price).toBe(d.price);
      expect(d.breakdown.final_price).toBe(d.price);
      expect(sumOfLines(d)).toBe(poundsToPence(d.price));
      const rounding = d.breakdown.lines.filter((l) => l.code === 'rounding');
      const unrounded = sumOfLines(d) - rounding.reduce((s, l) => s + poundsToPence(l.amount), 0);
      // Half a pound and more goes up, less goes down; a whole-pound fare needs no line.
      expect(poundsToPence(d.price)).toBe(Math.floor((unrounded + 50) / 100) * 100);
      expect(rounding.length).toBe(unrounded % 100 === 0 ? 0 : 1);
      if (rounding.length) expect(rounding[0].label).toBe('Rounding');
    }
    expect(details.some((d) => d.breakdown.lines.some((l) => l.code === 'rounding'))).toBe(true);
  });

  it('books, stores and e-mails the very amount the vehicle card showed, times the vehicles', async () => {
    const vehicle = priced(await quote()).find((d) => d.breakdown.lines.some((l) => l.code === 'rounding'))!;
    const res = await book(vehicle, 3);
    expect(res.status).toBe(200);
    const total = penceToPounds(poundsToPence(vehicle.price) * 3);
    expect(res.body.data.booking.total_booking_amount).toBe(total);
    const [row] = await t.db.query<{ unit_price_pence: number; total_booking_amount_pence: number }>(
      'SELECT unit_price_pence, total_booking_amount_pence FROM bookings WHERE booking_number = $1', [res.body.data.booking.booking_number]);
    expect(row).toEqual({ unit_price_pence: poundsToPence(vehicle.price), total_booking_amount_pence: poundsToPence(total) });
    await t.mail.deliverDue();
    const mail = t.mailbox.sent.find((m) => m.subject.includes(res.body.data.booking.booking_number))!;
    expect(mail.text).toContain(`£${Number(total).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`);
    expect(mail.text).toContain('Rounding');
  });

  it('rounds hourly hire too', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    const { body } = await t.call('POST', '/calculate-hourly-price', {
      pickup: 'Trafalgar Square, London WC2N 5DN', pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', pickup_duration: '5hour',
    });
    for (const d of body.price_details as Detail[]) {
      expect(d.price).toMatch(/^\d+\.00$/);
      expect(sumOfLines(d)).toBe(poundsToPence(d.price));
    }
  });
});

describe('with ROUND_OFF no', () => {
  beforeAll(async () => { await setSetting(t.db, 'ROUND_OFF', 'no'); });
  afterAll(async () => { await setSetting(t.db, 'ROUND_OFF', 'yes'); });

  it('keeps every amount to the penny, with no Rounding line, and books that amount', async () => {
    const details = priced(await quote());
    expect(details.some((d) => !d.price.endsWith('.00'))).toBe(true);
    for (const d of details) {
      expect(d.breakdown.lines.some((l) => l.code === 'rounding')).toBe(false);
      expect(sumOfLines(d)).toBe(poundsToPence(d.price));
    }
    const vehicle = details.find((d) => !d.price.endsWith('.00'))!;
    const res = await book(vehicle, 2);
    expect(res.body.data.booking.total_booking_amount).toBe(penceToPounds(poundsToPence(vehicle.price) * 2));
  });
});

describe('the order of the offers and the vehicles without a price', () => {
  it('lists the offers cheapest first and the ones without a price last', async () => {
    const pence = (await quote()).map((d) => poundsToPence(d.price));
    const firstUnpriced = pence.indexOf(0);
    expect(firstUnpriced).toBeGreaterThan(0);
    expect(pence.slice(firstUnpriced).every((p) => p === 0)).toBe(true);
    const pricedPence = pence.slice(0, firstUnpriced);
    expect(pricedPence).toEqual([...pricedPence].sort((a, b) => a - b));
  });

  it('offers a vehicle without a rate at no price even with extras asked for, and will not book it', async () => {
    const unpriced = (await quote()).find((d) => d.company_name === 'Thames Valley Chauffeurs' && d.vehicle_type === 'Executive MPV')!;
    expect(unpriced.price).toBe('0.00');
    expect(unpriced.breakdown.lines).toEqual([]);
    const res = await book(unpriced, 1);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, field: 'selectedVehicleData' });
    expect(res.body.message).toContain('no online price');
  });
});
