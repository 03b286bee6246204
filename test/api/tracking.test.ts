// Issue 41 §3, §5 and §6 through the API: a driver's position is stored as the car's place only while the job is on the
// way or at the pickup, when it is a number, in the UK and not an impossible jump; it goes when the job moves on and
// three hours after it was sent. The passenger's page shows the job and the car's distance, and follows it live
// (Server-Sent Events); the board hears of every change of its own company's bookings, and counts its alerts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, testApp } from './setup';
import { bookForDriver, signedInDriver, stepAs } from './driverHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { POSITION_MESSAGES } from '../../src/server/driver/positions';
import { TOO_MANY_STREAMS } from '../../src/server/live/sse';
import { LIVE_CHANNEL_SQL, positionPayload } from '../../src/server/live/hub';
import { purgeExpiredRecords } from '../../src/server/operator/retention';
import { DEFAULT_ALERT_MINUTES } from '../../src/domain/tracking';

let t: Awaited<ReturnType<typeof testApp>>;
const staff: Record<string, string>[] = [];
beforeAll(async () => {
  t = await testApp();
  for (const who of DEMO_STAFF) {
    const res = await t.call('POST', '/operator/session', { email: who.email, password: who.password });
    staff.push({ Cookie: res.headers['set-cookie'].split(';')[0] });
  }
});
afterAll(async () => { await t.db.close(); });

const DATE = '2030-10-04';
const office = () => staff[0];
/** Charing Cross, then 1 mile north 30 s later (120 mph: allowed), and Edinburgh (not). */
const LONDON = { lat: 51.5074, lng: -0.1278 };
const NORTH = { lat: 51.5219, lng: -0.1278 };
const EDINBURGH = { lat: 55.9533, lng: -3.1883 };
const send = (ref: string, who: { cookie: Record<string, string> }, body: unknown) => t.call('POST', `/driver/jobs/${ref}/position`, body, who.cookie);
const stored = (bookingId: number) => t.db.query<{ lat: number; lon: number }>('SELECT lat, lon FROM job_positions WHERE booking_id = $1', [bookingId]);

/** A job dispatched to a new driver and taken to `upTo`. */
async function jobOnTheWay(name: string, upTo: string[] = ['accepted', 'on_way']) {
  const dan = await signedInDriver(t, name);
  const b = await bookForDriver(t, DATE);
  expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office())).status).toBe(200);
  for (const s of upTo) expect((await stepAs(t, b.booking_number, s, dan)).status).toBe(200);
  return { dan, b };
}

/** Reads Server-Sent Events from an answer: `next(event)` is the data of the next event of that name. */
function events(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queued: { event: string; data: any }[] = [];
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  async function next(event: string, within = 10_000): Promise<any> {
    const until = Date.now() + within;
    for (;;) {
      const i = queued.findIndex((e) => e.event === event);
      if (i >= 0) return queued.splice(0, i + 1).pop()!.data;
      if (Date.now() > until) throw new Error(`no ${event} event`);
      // A read that outlasts the wait is kept for the next wait, so no chunk is dropped.
      reading ??= reader.read();
      const chunk = await Promise.race([reading, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
      if (chunk === null) continue;
      reading = null;
      if (chunk.done) throw new Error('stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data !== undefined) queued.push({ event: name, data: JSON.parse(data) });
      }
    }
  }
  /** Whether an event of that name came (waiting `ms`), leaving it queued. */
  async function none(event: string, ms = 1_500): Promise<boolean> {
    try { await next(event, ms); return false; } catch { return true; }
  }
  return { next, none, close: () => reader.cancel() };
}
const stream = async (path: string, headers: Record<string, string>) => {
  const res = await t.app.request(`/api/v1${path}`, { headers: { ...KEYS, ...headers } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  // Where the car is, kept by no cache on the way.
  expect(res.headers.get('cache-control')).toBe('no-store');
  return events(res);
};

describe("the car's position", () => {
  it('is stored only on the way or at the pickup, for the driver of the job', async () => {
    const { dan, b } = await jobOnTheWay('Position Driver', ['accepted']);
    expect(await send(b.booking_number, dan, LONDON)).toMatchObject({ status: 409, body: { message: POSITION_MESSAGES.notSharing } });
    expect(await stored(b.id)).toEqual([]);
    await stepAs(t, b.booking_number, 'on_way', dan);
    expect(await send(b.booking_number, dan, { ...LONDON, accuracy: 12.4 })).toEqual({ status: 200, body: { stored: true } });
    expect(await stored(b.id)).toEqual([{ lat: LONDON.lat, lon: LONDON.lng }]);
    // Another driver's job: not found, and nothing of it changes.
    const eve = await signedInDriver(t, 'Position Other');
    expect((await send(b.booking_number, eve, NORTH)).status).toBe(404);
    expect((await t.call('POST', `/driver/jobs/${b.booking_number}/position`, NORTH)).status).toBe(401);
    expect(await stored(b.id)).toEqual([{ lat: LONDON.lat, lon: LONDON.lng }]);
  });

  it('is refused, naming the field, when it is not a number, outside the UK, or faster than 200 mph from the last', async () => {
    const { dan, b } = await jobOnTheWay('Glitch Driver');
    expect(await send(b.booking_number, dan, { lat: '51.5', lng: -0.12 })).toMatchObject({ status: 422, body: { field: 'lat', message: 'The latitude must be a number of degrees.' } });
    expect(await send(b.booking_number, dan, { lat: 51.5 })).toMatchObject({ status: 422, body: { field: 'lng' } });
    expect(await send(b.booking_number, dan, { ...LONDON, accuracy: -1 })).toMatchObject({ status: 422, body: { field: 'accuracy' } });
    expect(await send(b.booking_number, dan, { ...LONDON, accuracy: 1e39 })).toMatchObject({ status: 422, body: { field: 'accuracy' } });
    expect(await send(b.booking_number, dan, { lat: 48.8566, lng: 2.3522 })).toMatchObject({ status: 422, body: { field: 'lat', message: expect.stringMatching(/outside the UK/) } });
    expect(await stored(b.id)).toEqual([]);
    t.clock.now = new Date();
    expect((await send(b.booking_number, dan, LONDON)).status).toBe(200);
    t.clock.now = new Date(t.clock.now.getTime() + 30_000);
    expect(await send(b.booking_number, dan, EDINBURGH)).toMatchObject({ status: 422, body: { field: 'lat', message: POSITION_MESSAGES.tooFast } });
    expect((await send(b.booking_number, dan, NORTH)).status).toBe(200);
    expect(await stored(b.id)).toEqual([{ lat: NORTH.lat, lon: NORTH.lng }]);
    t.clock.now = new Date();
  });

  it('goes once the passenger is on board (none taken after), and three hours after it was sent whatever happens', async () => {
    const { dan, b } = await jobOnTheWay('Forget Driver', ['accepted', 'on_way', 'arrived']);
    expect((await send(b.booking_number, dan, LONDON)).status).toBe(200);
    await stepAs(t, b.booking_number, 'on_board', dan);
    expect(await stored(b.id)).toEqual([]);
    expect((await send(b.booking_number, dan, LONDON)).status).toBe(409);

    const other = await jobOnTheWay('Retention Driver');
    expect((await send(other.b.booking_number, other.dan, LONDON)).status).toBe(200);
    await purgeExpiredRecords(t.db, new Date(Date.now() + 2 * 3_600_000));
    expect(await stored(other.b.id)).toHaveLength(1);
    await purgeExpiredRecords(t.db, new Date(Date.now() + 3 * 3_600_000 + 60_000));
    expect(await stored(other.b.id)).toEqual([]);
  });

  it('goes when the office cancels the job or gives it to another driver', async () => {
    const { dan, b } = await jobOnTheWay('Reassigned Driver');
    expect((await send(b.booking_number, dan, LONDON)).status).toBe(200);
    const eve = await signedInDriver(t, 'New Driver');
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, eve, office())).status).toBe(200);
    expect(await stored(b.id)).toEqual([]);
    const second = await jobOnTheWay('Cancelled Driver');
    expect((await send(second.b.booking_number, second.dan, LONDON)).status).toBe(200);
    const cancelled = await t.call('POST', `/operator/bookings/${second.b.booking_number}/cancel`, { reason: 'Passenger phoned', refund: 'none' }, office());
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await stored(second.b.id)).toEqual([]);
  });
});

describe('a page sending too often, or a job left on the way', () => {
  it('takes no position sooner than 3 s after the last (nothing written, nobody told), and none once the job stood still 3 hours', async () => {
    const { dan, b } = await jobOnTheWay('Pace Driver');
    t.clock.now = new Date();
    expect((await send(b.booking_number, dan, LONDON)).body).toEqual({ stored: true });
    t.clock.now = new Date(t.clock.now.getTime() + 2_000);
    expect(await send(b.booking_number, dan, NORTH)).toEqual({ status: 200, body: { stored: false } });
    expect(await stored(b.id)).toEqual([{ lat: LONDON.lat, lon: LONDON.lng }]);
    t.clock.now = new Date(t.clock.now.getTime() + 30_000);
    expect((await send(b.booking_number, dan, NORTH)).body).toEqual({ stored: true });
    // On the way for over 3 hours: the driver forgot to tap; the page no longer shares, the passenger sees no car.
    t.clock.now = new Date(Date.now() + 3 * 3_600_000 + 60_000);
    expect(await send(b.booking_number, dan, NORTH)).toMatchObject({ status: 409, body: { message: POSITION_MESSAGES.stale } });
    expect((await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': b.key })).body.manage.job).toMatchObject({ status: 'on_way', car: null });
    t.clock.now = new Date();
  });
});

describe('live streams', () => {
  it('are counted: 5 at once for one booking or member of staff, the next refused with 429 until one closes', async () => {
    const { b } = await jobOnTheWay('Streams Driver', ['accepted']);
    const open = [];
    for (let i = 0; i < 5; i++) open.push(await stream(`/manage/${b.booking_number}/live`, { 'X-Manage-Key': b.key }));
    const refused = await t.app.request(`/api/v1/manage/${b.booking_number}/live`, { headers: { ...KEYS, 'X-Manage-Key': b.key } });
    expect([refused.status, (await refused.json()).message, refused.headers.get('retry-after')]).toEqual([429, TOO_MANY_STREAMS, '30']);
    await open.pop()!.close();
    await expect.poll(async () => {
      const res = await t.app.request(`/api/v1/manage/${b.booking_number}/live`, { headers: { ...KEYS, 'X-Manage-Key': b.key } });
      const ok = res.status === 200;
      if (ok) open.push(events(res));
      else await res.body?.cancel();
      return ok;
    }, { timeout: 5_000 }).toBe(true);
    for (const s of open) await s.close();
  });
});

describe("the passenger's page", () => {
  it('shows the job in words and, on the way, how far the car is from the pickup', async () => {
    const { dan, b } = await jobOnTheWay('Shown Driver', ['accepted']);
    const page = async () => (await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': b.key })).body.manage.job;
    expect(await page()).toEqual({
      booking_status: 'confirmed', status: 'accepted', words: 'Your driver has accepted the job',
      driver: { name: 'Shown Driver', vehicle: 'Mercedes-Benz E-Class', colour: 'Black', registration: dan.registration }, car: null,
      // Heathrow with no flight number: no flight to follow (issue 42).
      flight: null,
    });
    await stepAs(t, b.booking_number, 'on_way', dan);
    // From Hatton Cross, about 1.3 miles from Terminal 5 as the crow flies.
    await send(b.booking_number, dan, { lat: 51.4668, lng: -0.4232 });
    const job = await page();
    expect(job).toMatchObject({ status: 'on_way', words: 'Your driver is on the way', car: { lat: 51.4668, lon: -0.4232 } });
    expect(job.car.approach.words).toMatch(/^\d+\.\d miles away, about \d+ min$/);
    expect(job.car.approach.miles).toBeGreaterThan(1);
    expect(job.car.approach.miles).toBeLessThan(4);
  });

  it('shows a finished job in words without the driver or the car, a cancelled one without any, and no car once it stood still for hours', async () => {
    const pageOf = async (b: { booking_number: string; key: string }) =>
      (await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': b.key })).body.manage.job;
    const done = await jobOnTheWay('Done Driver', ['accepted', 'on_way', 'arrived', 'on_board', 'completed']);
    expect(await pageOf(done.b)).toEqual({ booking_status: 'completed', status: 'completed', words: 'Journey completed', driver: null, car: null, flight: null });
    const cancelled = await jobOnTheWay('Called Off Driver', ['accepted']);
    expect((await t.call('POST', `/operator/bookings/${cancelled.b.booking_number}/cancel`, { reason: 'Plans changed' }, office())).status).toBe(200);
    expect(await pageOf(cancelled.b)).toEqual({ booking_status: 'cancelled', status: null, words: null, driver: null, car: null, flight: null });
    // A page left open on a job stood still for three hours and more: its last position is not shown as the car's.
    const { dan, b } = await jobOnTheWay('Still Driver');
    expect((await send(b.booking_number, dan, { lat: 51.4668, lng: -0.4232 })).status).toBe(200);
    expect((await pageOf(b)).car).toMatchObject({ lat: 51.4668, lon: -0.4232 });
    await t.db.query("UPDATE bookings SET job_status_at = now() - interval '4 hours' WHERE id = $1", [b.id]);
    expect(await pageOf(b)).toMatchObject({ status: 'on_way', words: 'Your driver is on the way', driver: { name: 'Still Driver' }, car: null });
    // No-show, once the free waiting time has passed: said in words, the driver no longer shown.
    const late = await jobOnTheWay('No Show Driver', ['accepted', 'on_way', 'arrived']);
    const [{ minutes }] = await t.db.query<{ minutes: number }>('SELECT free_waiting_minutes AS minutes FROM booking_details WHERE booking_id = $1', [late.b.id]);
    t.clock.now = new Date(Date.now() + (minutes + 1) * 60_000);
    try {
      expect((await stepAs(t, late.b.booking_number, 'no_show', late.dan)).status).toBe(200);
    } finally {
      t.clock.now = new Date();
    }
    expect(await pageOf(late.b)).toMatchObject({ status: 'no_show', words: 'The driver could not find you at the pickup point', driver: null, car: null });
  });

  it('follows the job live: a status and a position each reach the stream; a wrong key gets no stream', async () => {
    const { dan, b } = await jobOnTheWay('Live Driver', ['accepted']);
    expect((await t.app.request(`/api/v1/manage/${b.booking_number}/live`, { headers: { ...KEYS, 'X-Manage-Key': 'x'.repeat(43) } })).status).toBe(404);
    const live = await stream(`/manage/${b.booking_number}/live`, { 'X-Manage-Key': b.key });
    try {
      expect(await live.next('job')).toMatchObject({ status: 'accepted', car: null });
      // A notice that changes nothing the passenger sees (a late one, or another process's) sends nothing again.
      await t.db.query(`SELECT pg_notify(${LIVE_CHANNEL_SQL}, $1)`, [`${b.id}:`]);
      await t.db.query(`SELECT pg_notify(${LIVE_CHANNEL_SQL}, $1)`, [positionPayload(b.id)]);
      expect(await live.none('job')).toBe(true);
      await stepAs(t, b.booking_number, 'on_way', dan);
      expect(await live.next('job')).toMatchObject({ status: 'on_way', words: 'Your driver is on the way' });
      await send(b.booking_number, dan, LONDON);
      expect(await live.next('job')).toMatchObject({ status: 'on_way', car: { lat: LONDON.lat, lon: LONDON.lng } });
      await stepAs(t, b.booking_number, 'arrived', dan);
      expect(await live.next('job')).toMatchObject({ status: 'arrived', words: 'Your driver is at the pickup point' });
      await stepAs(t, b.booking_number, 'on_board', dan);
      expect(await live.next('job')).toMatchObject({ status: 'on_board', car: null });
    } finally {
      await live.close();
    }
  });
});

describe('the board', () => {
  it("hears of each change of its own company's bookings as it commits, and a company's staff of no other", async () => {
    const admin = await stream('/operator/live', office());
    const metro = await stream('/operator/live', staff[1]);
    try {
      // Opened: "anything may have changed" first, as after every reconnection.
      expect(await admin.next('changed')).toEqual({ id: 0 });
      expect(await metro.next('changed')).toEqual({ id: 0 });
      const { dan, b } = await jobOnTheWay('Board Driver', []);
      expect(await admin.next('changed')).toEqual({ id: b.id });
      await stepAs(t, b.booking_number, 'accepted', dan);
      expect(await admin.next('changed')).toEqual({ id: b.id });
      // An Albion booking: Metro's dispatcher hears nothing of it.
      expect(await metro.none('changed')).toBe(true);
    } finally {
      await admin.close();
      await metro.close();
    }
    expect((await t.app.request('/api/v1/operator/live', { headers: KEYS })).status).toBe(401);
  });

  it("sends the alert minutes of the settings with the board, and each row's assignment time", async () => {
    const { b } = await jobOnTheWay('Alert Driver', []);
    const board = (await t.call('GET', '/operator/bookings?tab=upcoming', undefined, office())).body;
    expect(board.alert_minutes).toEqual(DEFAULT_ALERT_MINUTES);
    const row = board.rows.find((r: any) => r.booking_number === b.booking_number);
    expect(row).toMatchObject({ job_status: 'assigned', dispatched_at: expect.any(String), pickup_at: expect.any(String) });
    await t.call('POST', '/operator/data', { change: { kind: 'setting', name: 'ALERT_NOT_ACCEPTED_MINUTES', value: '5' } }, office());
    expect((await t.call('GET', '/operator/bookings?tab=upcoming', undefined, office())).body.alert_minutes).toEqual({ ...DEFAULT_ALERT_MINUTES, notAccepted: 5 });
  });
});
