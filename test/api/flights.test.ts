// Issue 42 through the API with the local test flight service: a flight number read as airlines write it, a typo
// flagged at booking, the pickup following a delayed landing and everyone told once, an early landing moving it only
// when the office allows, a diverted or cancelled flight told to the office and flagged on the board, the provider
// down or talking nonsense changing nothing but "unavailable since", the allowance of calls, and free waiting from
// the landing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, testApp } from './setup';
import { signedInDriver, stepAs } from './driverHelpers';
import { bookFlight as bookFlightFor } from './flightHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { setSetting } from '../../src/server/operator/operator';
import { loadSettings } from '../../src/server/deps';
import { testFlightService } from '../../src/server/flightStatus/testService';
import { FlightWatcher, checkFlight, claimDue, watchFlights, type WatcherDeps } from '../../src/server/flights/watcher';
import { linkBookings } from '../../src/server/flights/links';
import { callsMade } from '../../src/server/flightStatus/allowance';
import { checkedAnswer } from '../../src/server/flightStatus/service';
import { MAX_TEST_FLIGHTS } from '../../src/server/flightStatus/testService';
import { loadConfig } from '../../src/server/config';
import { TRAVEL_REFERENCE_PROBLEM } from '../../src/domain/flightNumbers';
import { ukLocalToInstant } from '../../src/domain/ukTime';

let t: Awaited<ReturnType<typeof testApp>>;
let office: Record<string, string>;
beforeAll(async () => {
  t = await testApp();
  const admin = DEMO_STAFF[0];
  const res = await t.call('POST', '/operator/session', { email: admin.email, password: admin.password });
  office = { Cookie: res.headers['set-cookie'].split(';')[0] };
  // Many flights are checked in the same minutes of the tests' days: the allowance is its own test, below.
  await setSetting(t.db, 'FLIGHT_CALLS_PER_MINUTE', '1000');
});
afterAll(async () => { await t.db.close(); });

const at = (date: string, hhmm: string) => ukLocalToInstant(date, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)));
const watcher = (over: Partial<WatcherDeps> = {}): WatcherDeps => ({
  db: t.db, service: testFlightService(t.db), settings: () => loadSettings(t.db), siteUrl: TEST_SITE_URL, now: () => t.clock.now, ...over,
});
/** A round of the watcher at a UK time of the day; the flights are due at once (as if their interval had passed). */
async function roundAt(date: string, hhmm: string, over: Partial<WatcherDeps> = {}) {
  t.clock.now = at(date, hhmm);
  await t.db.query("UPDATE flights SET next_check_at = $1 WHERE flight_date = $2 AND next_check_at > $1 AND next_check_at < 'infinity'",
    [t.clock.now.toISOString(), date]);
  return watchFlights(watcher(over));
}
const script = (number: string, body: Record<string, unknown>) => t.app.request(`/test-flights/flights/${number}`, {
  method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});

/** A guest booking paid in the car from Heathrow T5 at 07:15 with a flight number as typed. */
const bookFlight = (date: string, flight: string, time?: { pickup_hour: string; pickup_min: string }) => bookFlightFor(t, date, flight, time);
const messages = (bookingId: number, kind: string) => t.db.query<{ to_address: string; subject: string; body_text: string }>(
  'SELECT to_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 AND kind = $2 ORDER BY id', [bookingId, kind]);
const pickupOf = async (id: number) => (await t.db.query<{ pickup_at: Date }>('SELECT pickup_at FROM bookings WHERE id = $1', [id]))[0].pickup_at.toISOString();
const manage = (b: { booking_number: string; key: string }) => t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': b.key });

describe('the flight number at booking', () => {
  it('is stored as airlines write it, and text that is no flight, train or ferry is refused naming the field', async () => {
    const b = await bookFlight('2030-10-01', 'baw0283');
    const [row] = await t.db.query<{ flight_no: string }>('SELECT flight_no FROM bookings WHERE id = $1', [b.id]);
    expect(row.flight_no).toBe('BA 283');
    const train = await bookFlight('2030-10-01', 'Eurostar 9014 from Paris');
    expect((await t.db.query<{ flight_no: string }>('SELECT flight_no FROM bookings WHERE id = $1', [train.id]))[0].flight_no).toBe('Eurostar 9014 from Paris');
    const prices = await t.call('POST', '/calculate-distance-price', {
      pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
      pickup_date: '2030-10-01', pickup_hour: '7am', pickup_min: '15', passengers: 1, pickup_fight_number: 'my flight',
    });
    expect(prices.status).toBe(422);
    expect(prices.body.field).toBe('pickup_fight_number');
    expect(prices.body.message).toContain(TRAVEL_REFERENCE_PROBLEM);
  });

  it('is looked up for the pickup date: a flight that does not land there is flagged, the terminal given when known', async () => {
    expect((await script('BA283', { date: '2030-10-02', airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'on_time', terminal: '5' })).status).toBe(200);
    t.clock.now = at('2030-10-01', '12:00');
    const ask = (number: string) => t.call('GET', `/flights/check?number=${encodeURIComponent(number)}&date=2030-10-02&pickup=${encodeURIComponent('Heathrow Airport Terminal 5')}`);
    const typo = await ask('BA238');
    expect(typo.body).toMatchObject({ number: 'BA 238', checked: true, warning: 'BA 238 does not land at Heathrow on 2 Oct: check the number' });
    const right = await ask('ba 0283');
    expect(right.body).toMatchObject({ number: 'BA 283', checked: true, warning: null, words: 'BA 283 on time: lands 06:45', terminal: '5' });
    // Another airport, a train, no service answering: nothing to flag.
    expect((await t.call('GET', '/flights/check?number=BA283&date=2030-10-02&pickup=Gatwick%20Airport%20South')).body).toMatchObject({ warning: 'BA 283 does not land at Gatwick on 2 Oct: check the number' });
    expect((await ask('Eurostar 9014')).body).toMatchObject({ number: null, checked: false, warning: null });
    // Asked again within minutes: the answer kept, no new call.
    const calls = (await callsMade(t.db, 'test', t.clock.now)).minute;
    expect((await ask('BA 238')).body).toMatchObject({ warning: 'BA 238 does not land at Heathrow on 2 Oct: check the number' });
    expect((await callsMade(t.db, 'test', t.clock.now)).minute).toBe(calls);
    // The service down: nothing is said, the booking goes on.
    await script('*', { state: 'down' });
    expect((await ask('BA239')).body).toMatchObject({ checked: false, warning: null });
    await script('*', { state: 'working' });
  });
});

describe('the pickup follows the landing', () => {
  const DAY = '2030-10-04';
  it('moves with a flight 55 minutes late and tells the driver, the office and the passenger once', async () => {
    await script('BA117', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55, terminal: '5' });
    const b = await bookFlight(DAY, 'BA 117');
    const dan = await signedInDriver(t, 'Flight Driver One');
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office)).status).toBe(200);

    await roundAt(DAY, '03:00');
    // Landing 07:40, then 30 minutes to reach arrivals from an international flight.
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:10').toISOString());
    const told = await messages(b.id, 'pickup_moved_sms');
    expect(told.map((m) => m.to_address).sort()).toEqual([dan.mobile, '+447700900456'].sort());
    expect(told[0].body_text).toContain('now at 08:10 (booked 07:15)');
    expect((await messages(b.id, 'pickup_moved')).map((m) => m.subject)).toEqual([`New pickup time: ${b.booking_number}`]);
    expect((await messages(b.id, 'booking_change_notice')).filter((m) => m.subject.includes('Pickup moved to 08:10'))).toHaveLength(1);
    // Each text named on the Mail page by what it is; the passenger's e-mail to the passenger; the office's notice with
    // the time as booked and the flight's news.
    expect(told.map((m) => m.subject)).toEqual([`Pickup moved: ${b.booking_number}`, `Pickup moved: ${b.booking_number}`]);
    expect(told.find((m) => m.to_address === dan.mobile)!.body_text).not.toBe(told.find((m) => m.to_address !== dan.mobile)!.body_text);
    const [mail] = await messages(b.id, 'pickup_moved');
    const [{ email }] = await t.db.query<{ email: string }>('SELECT passenger_email AS email FROM booking_passengers WHERE booking_id = $1', [b.id]);
    expect(mail.to_address).toBe(email);
    const notice = (await messages(b.id, 'booking_change_notice')).find((m) => m.subject.includes('Pickup moved to 08:10'))!;
    expect(notice.body_text).toContain('08:10 (booked 07:15)');
    expect(notice.body_text).toContain('BA 117 delayed: lands 07:40 (due 06:45)');

    // Checked again and again (and after it landed): the time stands, nobody is told twice.
    await roundAt(DAY, '05:30');
    await roundAt(DAY, '07:45');
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:10').toISOString());
    expect(await messages(b.id, 'pickup_moved_sms')).toHaveLength(2);
    expect(await messages(b.id, 'pickup_moved')).toHaveLength(1);

    // Every page says so: the board, the driver's job, the passenger's page, the console's booking and its timeline.
    const board = await t.call('GET', `/operator/bookings?tab=today&q=${b.booking_number}`, undefined, office);
    const row = board.body.rows.find((r: any) => r.booking_number === b.booking_number);
    expect(row.flight).toMatchObject({ number: 'BA 117', status: 'landed', moved: true, moved_words: 'Pickup moved to 08:10 (booked 07:15)', terminal: '5' });
    const job = await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie);
    expect(job.body.job.flight_status).toMatchObject({ words: 'BA 117 landed at 07:40', moved_words: 'Pickup moved to 08:10 (booked 07:15)' });
    expect((await manage(b)).body.manage.flight).toMatchObject({ words: 'BA 117 landed at 07:40', moved: true });
    const desk = await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, office);
    expect(desk.body.desk.flight.moved_words).toBe('Pickup moved to 08:10 (booked 07:15)');
    const said = desk.body.timeline.map((e: any) => e.text);
    expect(said).toContain('Flight: BA 117 delayed: lands 07:40 (due 06:45)');
    expect(said).toContain('Flight: BA 117 landed at 07:40');
    expect(desk.body.timeline.find((e: any) => e.text === 'Flight: BA 117 landed at 07:40').by).toBe('Flight status (test service)');
    // The texts are on the timeline as texts.
    expect(said).toContain(`Text to ${dan.mobile}: Pickup moved: ${b.booking_number}`);
    // Checked again with the same answer: nothing new on the timeline.
    expect(said.filter((a: string) => a === 'Flight: BA 117 delayed: lands 07:40 (due 06:45)')).toHaveLength(1);
  });

  it('counts free waiting from the landing: No-show waits for it', async () => {
    await script('BA119', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:00', outcome: 'on_time' });
    const b = await bookFlight(DAY, 'BA119', { pickup_hour: '6am', pickup_min: '30' });
    const dan = await signedInDriver(t, 'Flight Driver Two');
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office)).status).toBe(200);
    await roundAt(DAY, '06:05');
    for (const s of ['accepted', 'on_way']) expect((await stepAs(t, b.booking_number, s, dan)).status).toBe(200);
    t.clock.now = at(DAY, '06:30');
    expect((await stepAs(t, b.booking_number, 'arrived', dan)).status).toBe(200);
    // Landed 06:00 with 45 minutes of free waiting: No-show from 06:45, not 07:15 (45 minutes after Arrived).
    const job = await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie);
    expect(job.body.job.no_show_from).toBe(at(DAY, '06:45').toISOString());
    t.clock.now = at(DAY, '06:44');
    expect((await stepAs(t, b.booking_number, 'no_show', dan)).status).toBe(409);
    t.clock.now = at(DAY, '06:46');
    expect((await stepAs(t, b.booking_number, 'no_show', dan)).status).toBe(200);
  });

  it('moves earlier for an early landing only when the office allows it', async () => {
    await script('VS4', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'early', minutes: 25 });
    const b = await bookFlight(DAY, 'VS 004');
    await roundAt(DAY, '03:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
    expect(await messages(b.id, 'pickup_moved')).toHaveLength(0);
    await setSetting(t.db, 'FLIGHT_PICKUP_EARLIER', 'yes');
    try {
      await script('VS4', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'early', minutes: 30 });
      await roundAt(DAY, '04:00');
      // Landing 06:15 plus 30 minutes.
      expect(await pickupOf(b.id)).toBe(at(DAY, '06:45').toISOString());
      expect(await messages(b.id, 'pickup_moved')).toHaveLength(1);
    } finally {
      await setSetting(t.db, 'FLIGHT_PICKUP_EARLIER', 'no');
    }
  });

  it('gives a domestic flight 15 minutes to arrivals', async () => {
    await script('BA1437', { date: DAY, airport: 'LHR', from: 'EDI', scheduled: '07:20', outcome: 'on_time' });
    const b = await bookFlight(DAY, 'BA1437');
    await roundAt(DAY, '05:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:35').toISOString());
    // 20 minutes after the booked time: told.
    expect(await messages(b.id, 'pickup_moved')).toHaveLength(1);
  });

  it('tells the office once of a diverted or cancelled flight, and the board flags it', async () => {
    await script('EI154', { date: DAY, airport: 'LHR', from: 'EIDW', scheduled: '06:50', outcome: 'diverted' });
    await script('AA100', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:50', outcome: 'cancelled' });
    const diverted = await bookFlight(DAY, 'EI154');
    const cancelled = await bookFlight(DAY, 'AA100');
    await roundAt(DAY, '04:00');
    await roundAt(DAY, '04:30');
    for (const [b, what] of [[diverted, 'diverted'], [cancelled, 'cancelled']] as const) {
      const notices = (await messages(b.id, 'booking_change_notice')).filter((m) => m.subject.includes(`Flight ${what}`));
      expect(notices).toHaveLength(1);
      expect(notices[0].body_text).toContain('Call the passenger and decide the pickup');
      // Only the office is told: no new time for the passenger or the driver.
      expect(await messages(b.id, 'pickup_moved')).toHaveLength(0);
      expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
      const board = await t.call('GET', `/operator/bookings?tab=today&q=${b.booking_number}`, undefined, office);
      expect(board.body.rows[0].flight.status).toBe(what);
    }
  });

  it('keeps the booking as it was while the provider fails, is slow or talks nonsense, then goes on', async () => {
    await script('LH900', { date: DAY, airport: 'LHR', from: 'EDDF', scheduled: '06:40', outcome: 'delayed', minutes: 20 });
    const b = await bookFlight(DAY, 'LH900');
    await roundAt(DAY, '04:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:30').toISOString());
    const waits: number[] = [];
    for (const [i, state] of ['down', 'nonsense', 'slow'].entries()) {
      await script('*', { state });
      await script('LH900', { date: DAY, airport: 'LHR', from: 'EDDF', scheduled: '06:40', outcome: 'delayed', minutes: 90 });
      const tally = await roundAt(DAY, `04:4${i}`, { service: testFlightService(t.db, { slowMs: 400 }), timeoutMs: 100 });
      expect(tally.failed).toBeGreaterThanOrEqual(1);
      expect(await pickupOf(b.id)).toBe(at(DAY, '07:30').toISOString());
      expect((await manage(b)).body.manage.flight.unavailable).toBe('Flight status unavailable since 04:40');
      const [f] = await t.db.query<{ failures: number; wait: number; last_error: string }>(
        "SELECT failures, extract(epoch FROM next_check_at - $1::timestamptz) / 60 AS wait, last_error FROM flights WHERE ident = 'LH 900'", [t.clock.now.toISOString()]);
      expect([f.failures, f.last_error.length > 0, f.last_error.length <= 300]).toEqual([i + 1, true, true]);
      waits.push(Number(f.wait));
    }
    // Asked again sooner at first, then after twice as long at each failure in a row, an hour at most.
    expect(waits[1]).toBe(Math.min(2 * waits[0], 60));
    expect(waits[2]).toBe(Math.min(2 * waits[1], 60));
    await script('*', { state: 'working' });
    // An answer sends what it wrote at once.
    let kicked = 0;
    await roundAt(DAY, '04:50', { kick: () => { kicked++; } });
    expect(kicked).toBeGreaterThanOrEqual(1);
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:40').toISOString());
    expect((await manage(b)).body.manage.flight.unavailable).toBeNull();
    const timeline = (await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, office)).body.timeline.map((e: any) => e.text);
    expect(timeline.filter((a: string) => a === 'Flight status unavailable: LH 900')).toHaveLength(1);
  });

  it('flags a booked flight the service does not know on that day, with no status, time or move', async () => {
    const b = await bookFlight(DAY, 'BA 998');
    await roundAt(DAY, '03:10');
    const board = await t.call('GET', `/operator/bookings?tab=today&q=${b.booking_number}`, undefined, office);
    expect(board.body.rows[0].flight).toMatchObject({
      number: 'BA 998', status: null, words: null, terminal: null, moved: false, unavailable: null,
      not_found: 'BA 998 does not land at Heathrow on 4 Oct: check the number',
    });
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
  });

  it('runs its rounds one at a time in the background, says when one failed, and stops', async () => {
    const lines: string[] = [];
    let rounds = 0;
    const w = new FlightWatcher(watcher({ settings: async () => { rounds++; throw new Error('settings away'); }, log: (line) => lines.push(line) }));
    const first = w.round();
    expect(w.round()).toBe(first);
    await first;
    expect([rounds, lines]).toEqual([1, ['Flight check round failed: settings away']]);
    w.start(20);
    await expect.poll(() => rounds, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await w.stop();
    const stopped = rounds;
    await new Promise((r) => setTimeout(r, 200));
    expect(rounds).toBe(stopped);
  });

  it('moves a followed booking with news a visitor\'s look-up heard first', async () => {
    await script('BA131', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 20 });
    const b = await bookFlight(DAY, 'BA131');
    await roundAt(DAY, '03:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:35').toISOString());
    // Later news: 80 minutes late. A visitor booking the same flight hears it first...
    await script('BA131', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 80 });
    t.clock.now = at(DAY, '03:10');
    const asked = await t.call('GET', `/flights/check?number=BA131&date=${DAY}&pickup=${encodeURIComponent('Heathrow Airport Terminal 5')}`);
    expect(asked.body.words).toBe('BA 131 delayed: lands 08:05 (due 06:45)');
    // ... and the booking on it still moves at the watcher's next check.
    await roundAt(DAY, '03:15');
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:35').toISOString());
  });

  it('puts the pickup back to the time booked when the passenger takes the flight number off, and follows it no more', async () => {
    await script('BA141', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55 });
    const b = await bookFlight(DAY, 'BA141');
    await roundAt(DAY, '03:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:10').toISOString());
    t.clock.now = new Date();
    const change = await t.call('POST', `/manage/${b.booking_number}/changes`, { ...(await manage(b)).body.manage.form, flight_no: '' }, { 'X-Manage-Key': b.key });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    await script('BA141', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 90 });
    await roundAt(DAY, '03:20');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
    expect(await t.db.query('SELECT 1 FROM booking_flights WHERE booking_id = $1', [b.id])).toHaveLength(0);
    expect((await manage(b)).body.manage.flight).toBeNull();
  });

  it('looks a flight number changed on the manage page up again', async () => {
    await script('BA500', { date: DAY, airport: 'LHR', from: 'LIRF', scheduled: '06:30', outcome: 'delayed', minutes: 60 });
    await script('BA501', { date: DAY, airport: 'LHR', from: 'LIRF', scheduled: '06:30', outcome: 'on_time' });
    const b = await bookFlight(DAY, 'BA501');
    await roundAt(DAY, '03:00');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
    t.clock.now = new Date();
    const view = await manage(b);
    const change = await t.call('POST', `/manage/${b.booking_number}/changes`, { ...(await manage(b)).body.manage.form, flight_no: 'ba500' }, { 'X-Manage-Key': b.key });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    await roundAt(DAY, '03:05');
    expect(await pickupOf(b.id)).toBe(at(DAY, '08:00').toISOString());
  });
});

describe('a claim whose lease ran out', () => {
  it('writes nothing back: the process that claimed it since owns the flight', async () => {
    const DAY = '2030-10-07';
    await script('BA151', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55 });
    const b = await bookFlight(DAY, 'BA151');
    t.clock.now = at(DAY, '03:00');
    const settings = await loadSettings(t.db);
    await linkBookings(t.db, { service: watcher().service, siteUrl: TEST_SITE_URL, now: t.clock.now, settings });
    const claimed = (await claimDue(t.db, t.clock.now))!;
    expect(claimed.ident).toBe('BA 151');
    // Another process took it over once the lease had run out.
    await t.db.query("UPDATE flights SET lease_until = lease_until + interval '1 minute' WHERE id = $1", [claimed.id]);
    expect(await checkFlight(watcher(), claimed, settings)).toBe('lost');
    expect(await pickupOf(b.id)).toBe(at(DAY, '07:15').toISOString());
    const [row] = await t.db.query<{ checked_at: Date | null }>('SELECT checked_at FROM flights WHERE id = $1', [claimed.id]);
    expect(row.checked_at).toBeNull();
    // A failed call of a lost claim writes nothing either.
    await script('*', { state: 'down' });
    try {
      expect(await checkFlight(watcher(), claimed, settings)).toBe('lost');
      expect((await t.db.query<{ failures: number }>('SELECT failures FROM flights WHERE id = $1', [claimed.id]))[0].failures).toBe(0);
    } finally {
      await script('*', { state: 'working' });
    }
  });
});

describe("what a provider answers", () => {
  it('is believed only as a flight: times written one way, nonsense refused', () => {
    const flight = { status: 'delayed', origin: 'KJFK', scheduledIn: '2030-10-04T05:45:00Z', estimatedIn: '2030-10-04T06:40:00Z', actualIn: null, terminal: '5' };
    expect(checkedAnswer({ found: true, flight })).toEqual({
      found: true, flight: { ...flight, scheduledIn: '2030-10-04T05:45:00.000Z', estimatedIn: '2030-10-04T06:40:00.000Z' },
    });
    expect(checkedAnswer({ found: false })).toEqual({ found: false });
    expect(checkedAnswer({ found: null })).toEqual({ found: null });
    expect(() => checkedAnswer({ found: true, flight: { ...flight, status: 'late' } })).toThrow(/not a flight/);
    expect(() => checkedAnswer({ found: true, flight: { ...flight, estimatedIn: 'soon' } })).toThrow(/not times/);
    expect(() => checkedAnswer({ found: true })).toThrow();
    expect(() => checkedAnswer('BA 117 landed')).toThrow(/not a flight/);
  });
});

describe('the allowance of calls', () => {
  it('makes no call beyond the calls per minute; the flight waits for the next round', async () => {
    const DAY = '2030-10-06';
    await setSetting(t.db, 'FLIGHT_CALLS_PER_MINUTE', '1');
    try {
      await script('QR1', { date: DAY, airport: 'LHR', from: 'OTHH', scheduled: '06:00', outcome: 'on_time' });
      await script('QR3', { date: DAY, airport: 'LHR', from: 'OTHH', scheduled: '06:05', outcome: 'on_time' });
      await bookFlight(DAY, 'QR1');
      await bookFlight(DAY, 'QR3');
      const tally = await roundAt(DAY, '03:00');
      expect(tally).toMatchObject({ answered: 1, over: 1 });
      expect((await callsMade(t.db, 'test', t.clock.now)).minute).toBe(1);
      t.clock.now = at(DAY, '03:01');
      expect(await watchFlights(watcher())).toMatchObject({ answered: 1, over: 0 });
    } finally {
      await setSetting(t.db, 'FLIGHT_CALLS_PER_MINUTE', '1000');
    }
  });
});

describe('the flight status service chosen at start-up', () => {
  it('is AeroAPI with a key, the test service by default, none in production unless FLIGHT_STATUS says otherwise', () => {
    expect(loadConfig({}).flights).toEqual({ service: 'test' });
    expect(loadConfig({ NODE_ENV: 'production', CARD_GATEWAY: 'test' }).flights).toEqual({ service: 'none' });
    expect(loadConfig({ NODE_ENV: 'production', CARD_GATEWAY: 'test', FLIGHT_STATUS: 'test' }).flights).toEqual({ service: 'test' });
    expect(loadConfig({ AEROAPI_KEY: ' k3y ' }).flights).toEqual({ service: 'aeroapi', key: 'k3y', url: undefined });
    expect(loadConfig({ AEROAPI_KEY: 'k', FLIGHT_STATUS: 'none' }).flights).toEqual({ service: 'none' });
    expect(loadConfig({ AEROAPI_KEY: 'k', AEROAPI_URL: 'http://127.0.0.1:9' }).flights).toEqual({ service: 'aeroapi', key: 'k', url: 'http://127.0.0.1:9' });
    expect(() => loadConfig({ FLIGHT_STATUS: 'aeroapi' })).toThrow(/needs AEROAPI_KEY/);
    expect(() => loadConfig({ FLIGHT_STATUS: 'flightaware' })).toThrow(/FLIGHT_STATUS must be aeroapi, test or none/);
    expect(() => loadConfig({ NODE_ENV: 'production', CARD_GATEWAY: 'test', AEROAPI_KEY: 'k', AEROAPI_URL: 'http://aero.example' })).toThrow(/https in production/);
    expect(loadConfig({}).flightWatchSeconds).toBe(60);
    expect(loadConfig({ FLIGHT_WATCH_SECONDS: '2' }).flightWatchSeconds).toBe(2);
    expect(() => loadConfig({ FLIGHT_WATCH_SECONDS: '0' })).toThrow(/FLIGHT_WATCH_SECONDS/);
  });
  it('has its scripting door only while it is the service in use, taking small scripts and a few hundred flights', async () => {
    const none = await testApp({ flights: () => null });
    try {
      expect((await none.app.request('/test-flights/flights')).status).toBe(404);
      expect((await none.call('GET', '/flights/check?number=BA283&date=2030-10-02&pickup=Heathrow%20Airport')).body).toMatchObject({ checked: false, warning: null });
    } finally {
      await none.db.close();
    }
    const big = await t.app.request('/test-flights/flights/BA1', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(5000) }) });
    expect(big.status).toBe(413);
    expect((await script('BA1', { airport: 'JFK', from: 'KJFK', scheduled: '06:45', outcome: 'on_time' })).status).toBe(422);
    expect((await script('not a flight', { airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'on_time' })).status).toBe(422);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM test_flights');
    await t.db.query(`INSERT INTO test_flights (ident, flight_date, airport, origin, scheduled_time, outcome)
      SELECT 'ZZ ' || g, NULL, 'LHR', 'KJFK', '06:00', 'on_time' FROM generate_series(1, $1::int) g`, [MAX_TEST_FLIGHTS - n]);
    const full = await script('ZZ9999', { airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'on_time' });
    expect(full.status).toBe(409);
    await t.db.query("DELETE FROM test_flights WHERE ident LIKE 'ZZ %'");
  });
});
