// One job through the day in three browsers at once (issue 41 §7), against the real server: the office at 1280 px
// assigns Graham Ellis and RG20 TVC from the record; Graham at 375 px, his phone near Heathrow, signs in with the code
// texted to him and takes the job through its steps; the passenger at 375 px, on the booking's page from their link,
// sees each status and the car's distance appear without a reload, and the office's board and booking page follow
// too. The SMS folder is read at each step. axe checks the passenger's live panel and the driver's sharing notice.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { smsTexts } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
const GRAHAM = { name: 'Graham Ellis', mobile: '07700 900301', e164: '+447700900301', car: 'RG20 TVC' };
const PASSENGER_PHONE = '+447700900654';
/** Hatton Cross, about a mile and a half from Terminal 5 by road; then a little nearer. */
const HATTON_CROSS = { latitude: 51.4668, longitude: -0.4232 };
const NEARER = { latitude: 51.4668, longitude: -0.43 };

const api = async (at: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${at}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
};

/** A Thames Valley booking made as the website makes it, paid in the car, 20 days ahead; its reference and link's key. */
async function book() {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Reading Station, Station Approach, Reading RG1 1LZ',
    pickup_date: ukDateInDays(20), pickup_hour: '9am', pickup_min: '30', passengers: 2, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.company_name === 'Thames Valley Chauffeurs');
  expect(vehicle, 'Thames Valley prices the journey').toBeTruthy();
  const res = await api('/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Oliver', surname: 'Bennett', number: '07700 900654', email: `oliver.live.${Date.now()}@example.com`, additionalInfo: '' },
    payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ref: res.body.data.booking.booking_number as string, key: res.body.data.manage_key as string };
}

const texts = () => smsTexts(shared.dataDir);
const textsTo = (to: string, ref: string) => texts().filter((t) => t.to === to && t.text.includes(ref)).map((t) => t.text);

const live = (page: Page) => page.locator('.manage-live');
const steps = (page: Page) => page.getByRole('group', { name: 'Job steps' });

describe('one job in three browsers', () => {
  it('reaches the driver, and each step shows on the board and on the passenger’s page without a reload', async () => {
    const { ref, key } = await book();

    // The passenger, on their booking's page from the link: no driver yet.
    const passengerContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const passenger = await passengerContext.newPage();
    await passenger.goto(`${shared.url}/manage/${ref}#key=${key}`);
    await passenger.getByText(`Booking ${ref}`).waitFor();
    expect(await passenger.getByRole('heading', { name: 'Your driver' }).count()).toBe(0);

    // The office: the board's Upcoming tab in one tab, the booking in another.
    const officeContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const office = await officeContext.newPage();
    await office.goto(`${shared.url}/operator/bookings/${ref}`);
    await office.getByLabel('E-mail').fill(ADMIN.email);
    await office.getByLabel('Password').fill(ADMIN.password);
    await office.getByRole('button', { name: 'Sign in' }).click();
    await office.getByRole('heading', { name: 'Timeline' }).waitFor();
    const board = await officeContext.newPage();
    await board.goto(`${shared.url}/operator?tab=upcoming&q=${ref}`);
    const row = board.getByRole('row').filter({ hasText: ref });
    await row.waitFor();

    await office.getByRole('button', { name: 'Assign driver' }).click();
    const dialog = office.getByRole('dialog', { name: `Assign a driver to ${ref}` });
    await dialog.getByLabel('Find a driver (name or mobile)').fill('graham');
    await dialog.getByRole('radio', { name: /Graham Ellis/ }).check();
    await dialog.getByLabel('Find a car (registration, make or model)').fill('rg20');
    await dialog.getByRole('radio', { name: /RG20 TVC/ }).check();
    await dialog.getByRole('button', { name: 'Save driver and car' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Without a reload: the board shows the driver, the passenger's page the driver and the car.
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Driver: Graham Ellis · Waiting for the driver to accept');
    await live(passenger).getByText('Your driver has been assigned').waitFor({ timeout: 15_000 });
    const driverPanel = passenger.getByRole('region', { name: 'Your driver' });
    await expect.poll(() => driverPanel.textContent()).toContain('RG20 TVC');
    expect(await driverPanel.textContent()).toContain('Graham Ellis');
    // The driver and the passenger are texted.
    await expect.poll(() => textsTo(GRAHAM.e164, ref).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(textsTo(GRAHAM.e164, ref)[0]).toMatch(new RegExp(`New job ${ref}: .* Open it: http.*/driver$`));
    await expect.poll(() => textsTo(PASSENGER_PHONE, ref).some((t) => /Graham Ellis/.test(t) && /RG20 TVC/.test(t)), { timeout: 30_000 }).toBe(true);

    // The driver's phone, near Heathrow, location allowed for the site.
    const driverContext = await suite.browser.newContext({
      viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, geolocation: HATTON_CROSS, permissions: ['geolocation'],
    });
    const driver = await driverContext.newPage();
    const codesBefore = texts().filter((t) => t.to === GRAHAM.e164 && /driver code/.test(t.text)).length;
    await driver.goto(`${shared.url}/driver`);
    await driver.getByLabel('Mobile number').fill(GRAHAM.mobile);
    await driver.getByRole('button', { name: 'Text me a code' }).click();
    await expect.poll(() => texts().filter((t) => t.to === GRAHAM.e164 && /driver code/.test(t.text)).length, { timeout: 30_000 }).toBeGreaterThan(codesBefore);
    const code = /^(\d{6})/.exec(texts().filter((t) => t.to === GRAHAM.e164 && /driver code/.test(t.text)).at(-1)!.text)![1];
    await driver.getByLabel('Code').fill(code);
    await driver.getByRole('button', { name: 'Sign in', exact: true }).click();
    await driver.getByRole('link', { name: new RegExp(ref) }).click();
    await driver.getByRole('heading', { name: `Job ${ref}` }).waitFor();

    const tap = async (label: string) => {
      await steps(driver).getByRole('button', { name: label, exact: true }).click();
      await driver.getByRole('status').filter({ hasText: `Saved: ${label}.` }).waitFor();
    };
    await tap('Accept');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Accepted by the driver');
    await live(passenger).getByText('Your driver has accepted the job').waitFor({ timeout: 15_000 });
    // The office's page of the booking shows the step on its timeline, unreloaded.
    await office.getByRole('listitem').filter({ hasText: 'Driver: Accept' }).waitFor({ timeout: 15_000 });

    // On my way: the phone shares its position, and the passenger sees how far the car is.
    await tap('On my way');
    await driver.getByRole('status').filter({ hasText: 'Sharing your position with the passenger' }).waitFor({ timeout: 15_000 });
    expect(await violations(driver)).toEqual([]);
    await live(passenger).getByText('Your driver is on the way').waitFor({ timeout: 15_000 });
    const distance = live(passenger).locator('.manage-live-distance');
    await expect.poll(() => distance.textContent().catch(() => ''), { timeout: 15_000 }).toMatch(/^\d+\.\d miles away, about \d+ min$/);
    const first = Number(/^(\d+\.\d)/.exec((await distance.textContent())!)![1]);
    expect(first).toBeGreaterThan(0.5);
    expect(first).toBeLessThan(4);
    expect(await violations(passenger)).toEqual([]);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Driver on the way');
    // The passenger was texted a link to follow the car.
    await expect.poll(() => textsTo(PASSENGER_PHONE, ref).some((t) => /is on the way .* Follow the car: http/.test(t)), { timeout: 30_000 }).toBe(true);
    // The car moves on: the next position (sent every 12 s) brings the distance down, still without a reload.
    await driverContext.setGeolocation(NEARER);
    await expect.poll(async () => Number(/^(\d+\.\d)/.exec((await distance.textContent()) ?? '')?.[1] ?? first), { timeout: 40_000 }).toBeLessThan(first);

    await tap('Arrived');
    await live(passenger).getByText('Your driver is at the pickup point').waitFor({ timeout: 15_000 });
    await expect.poll(() => textsTo(PASSENGER_PHONE, ref).some((t) => /is at the pickup point/.test(t)), { timeout: 30_000 }).toBe(true);
    await tap('Passenger on board');
    await live(passenger).getByText('On board: enjoy your journey').waitFor({ timeout: 15_000 });
    // Never after on board: the phone stops sharing, and the passenger's page shows no distance.
    expect(await driver.getByText('Sharing your position').count()).toBe(0);
    expect(await distance.count()).toBe(0);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Passenger on board');

    await steps(driver).getByRole('button', { name: 'Completed', exact: true }).click();
    await driver.getByRole('dialog', { name: 'Complete this job?' }).getByRole('button', { name: 'Yes, completed' }).click();
    await driver.getByRole('status').filter({ hasText: 'Saved: Completed.' }).waitFor();
    await live(passenger).getByText('Journey completed').waitFor({ timeout: 15_000 });
    await expect.poll(() => textsTo(PASSENGER_PHONE, ref).some((t) => /Your receipt for/.test(t)), { timeout: 30_000 }).toBe(true);
    // The booking finished: the office's page says so, and no position of the job is kept.
    await office.getByRole('listitem').filter({ hasText: 'Driver: Completed' }).waitFor({ timeout: 15_000 });

    // The passenger's page, reloaded, says the same: the live words are the page's own.
    await passenger.reload();
    await live(passenger).getByText('Journey completed').waitFor();
    await Promise.all([passengerContext.close(), officeContext.close(), driverContext.close()]);
  });
});

/** A 1-pixel grey PNG: every tile of the stand-in tile server. */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe("the car's map", () => {
  it('shows the car and the pickup on the tiles the operator set, with their credit, and none without a setting', async () => {
    // A stand-in tile server, as a map provider would be: it counts the tiles asked for.
    const asked: string[] = [];
    const tiles = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(/^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '') ? 200 : 404, { 'Content-Type': 'image/png' });
      res.end(TILE);
    });
    await new Promise<void>((r) => tiles.listen(0, '127.0.0.1', r));
    const port = (tiles.address() as AddressInfo).port;
    try {
      const { ref, key } = await book();
      // The office assigns Graham and RG20 TVC; Graham signs in and sets off from Hatton Cross.
      const office = (await api('/operator/session', ADMIN)).cookie;
      const drivers = (await api('/operator/data/drivers', undefined, { cookie: office })).body.data.drivers as { id: number; name: string }[];
      const cars = (await api('/operator/data/cars', undefined, { cookie: office })).body.data.cars as { id: number; registration: string }[];
      expect((await api(`/operator/bookings/${ref}/driver`, {
        driver_id: String(drivers.find((d) => d.name === GRAHAM.name)!.id), car_id: String(cars.find((c) => c.registration === GRAHAM.car)!.id),
      }, { cookie: office })).status).toBe(200);
      const codes = () => texts().filter((t) => t.to === GRAHAM.e164 && /driver code/.test(t.text));
      const before = codes().length;
      await api('/driver/code', { mobile: GRAHAM.mobile });
      await expect.poll(() => codes().length, { timeout: 30_000 }).toBeGreaterThan(before);
      const session = await api('/driver/session', { mobile: GRAHAM.mobile, code: /^(\d{6})/.exec(codes().at(-1)!.text)![1] });
      expect(session.status).toBe(200);
      for (const status of ['accepted', 'on_way']) expect((await api(`/driver/jobs/${ref}/status`, { status }, { cookie: session.cookie })).status).toBe(200);
      expect((await api(`/driver/jobs/${ref}/position`, { lat: HATTON_CROSS.latitude, lng: HATTON_CROSS.longitude, accuracy: 10 }, { cookie: session.cookie })).status).toBe(200);

      // No tile source (the demo's): the distance in words, no map.
      const context = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
      const passenger = await context.newPage();
      await passenger.goto(`${shared.url}/manage/${ref}#key=${key}`);
      await live(passenger).locator('.manage-live-distance').waitFor();
      expect(await passenger.getByTestId('car-map').count()).toBe(0);

      await suite.setting('MAP_TILE_URL', `http://127.0.0.1:${port}/{z}/{x}/{y}.png`);
      await suite.setting('MAP_TILE_ATTRIBUTION', '© Test Tiles and contributors');
      await passenger.reload();
      const map = passenger.getByTestId('car-map');
      await map.waitFor();
      await passenger.getByText('Map: © Test Tiles and contributors').waitFor();
      // Tiles come from the operator's source (the page's policy allows it), with a marker for the car and the pickup.
      await expect.poll(() => asked.length, { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => map.locator('img.leaflet-tile-loaded').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await map.locator('.manage-map-car').count()).toBe(1);
      expect(await map.locator('.manage-map-pickup').count()).toBe(1);
      // The map says nothing the words do not, and holds nothing to tab to.
      expect(await map.getAttribute('aria-hidden')).toBe('true');
      expect(await map.locator('a, button, [tabindex]:not([tabindex="-1"])').count()).toBe(0);
      expect(await violations(passenger)).toEqual([]);
      // The car moves: its marker follows without a reload.
      const where = () => map.locator('.manage-map-car').evaluate((el) => (el as HTMLElement).style.transform);
      const first = await where();
      // 30 m west, a few seconds later (a position sooner than 3 s after the last is not taken).
      await passenger.waitForTimeout(3_500);
      expect((await api(`/driver/jobs/${ref}/position`, { lat: HATTON_CROSS.latitude, lng: HATTON_CROSS.longitude - 0.0004, accuracy: 10 }, { cookie: session.cookie })).body).toEqual({ stored: true });
      await expect.poll(where, { timeout: 15_000 }).not.toBe(first);
      await context.close();
    } finally {
      await new Promise((r) => tiles.close(r));
    }
  });
});
