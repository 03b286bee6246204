// Complaints and lost property (issue 43 §3) in Chromium against the real server. A passenger's Lost Item message sent
// through Contact Us becomes a lost property entry linked to the booking and its driver; the office finds it in the
// console, a close without an outcome is refused on the field, and closing it e-mails the owner once. A driver of the record, on a phone,
// takes a job to Passenger on board and reports an item found in the car: the office has it in Lost property, linked
// to the booking, the driver and the car. Every new screen is checked with axe. Bookings are made through the API, as
// the website makes them; the driver and car are added to the record as the office adds them.
import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { outboxMails, smsTexts } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

const api = async (at: string, body?: unknown, headers: Record<string, string> = {}, method = body ? 'POST' : 'GET') => {
  const res = await fetch(`${shared.url}/api/v1${at}`, { method, headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any, headers: res.headers };
};

let staffCookie: string | null = null;
async function office() {
  if (!staffCookie) staffCookie = (await api('/operator/session', ADMIN)).headers.get('set-cookie')!.split(';')[0];
  return { cookie: staffCookie };
}

let counter = 0;
/** A booking made as the website makes it, paid in the car: 20 days ahead, with Albion. */
async function book(email: string) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: ukDateInDays(20), pickup_hour: '7am', pickup_min: '15', passengers: 1, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Albion Executive Cars');
  const res = await api('/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Harriet', surname: `Vane${++counter}`, number: '07700 900654', email, additionalInfo: '' },
    payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking as { booking_number: string };
}

/** A driver and a car of Albion's added to the record as the office adds them (a mobile and a plate of this run's own). */
async function newDriverAndCar() {
  const n = `${process.pid % 100}${Date.now() % 10000}`.padStart(6, '0').slice(-6);
  const mobile = `07800 ${n}`;
  const letters = Array.from({ length: 3 }, () => 'ABCDEFGHJKLMNPRSTUVWXY'[Math.floor(Math.random() * 22)]).join('');
  const plate = `CW${n.slice(-2)} ${letters}`;
  const cookie = await office();
  const companies = (await api('/operator/data/drivers', undefined, cookie)).body.data.companies as { id: number; company_name: string }[];
  const albion = String(companies.find((c) => c.company_name === 'Albion Executive Cars')!.id);
  const types = (await api('/operator/data/cars', undefined, cookie)).body.data.vehicle_types as { id: number; category_name: string }[];
  const saved = await api('/operator/data', { change: {
    kind: 'driver', name: `Cora Found${n}`, mobile, email: '', licence_number: `CW${n}`, licensing_authority: 'Transport for London',
    licence_expiry: '2035-12-31', company_id: albion, active: 'yes',
  } }, cookie);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const car = await api('/operator/data', { change: {
    kind: 'car', registration: plate, make: 'Skoda', model: 'Superb', colour: 'Grey', vehicle_type_id: String(types.find((v) => v.category_name === 'Saloon')!.id),
    passengers: '4', suitcases: '2', wheelchair: 'no', licence_number: `PHV CW${n}`, licence_expiry: '2035-12-31', mot_expiry: '2035-12-31',
    insurance_expiry: '2035-12-31', company_id: albion, active: 'yes',
  } }, cookie);
  expect(car.status, JSON.stringify(car.body)).toBe(200);
  const drivers = (await api('/operator/data/drivers', undefined, cookie)).body.data.drivers as { id: number; name: string }[];
  const cars = (await api('/operator/data/cars', undefined, cookie)).body.data.cars as { id: number; registration: string }[];
  const driver = drivers.find((d) => d.name === `Cora Found${n}`)!;
  return { name: driver.name, id: String(driver.id), mobile, e164: `+44${mobile.replace(/\s/g, '').slice(1)}`, plate, carId: String(cars.find((c) => c.registration === plate)!.id) };
}

describe("a driver's found item", () => {
  it('is reported from the job once the passenger is on board, and the office has it in Lost property, linked to the booking, driver and car', async () => {
    const crew = await newDriverAndCar();
    const booking = await book(`harriet.${Date.now()}@example.com`);
    const ref = booking.booking_number;
    const assigned = await api(`/operator/bookings/${ref}/driver`, { driver_id: crew.id, car_id: crew.carId }, await office());
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);

    const context: BrowserContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${shared.url}/driver/jobs/${ref}`);
    await page.getByLabel('Mobile number').fill(crew.mobile);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const codeOf = () => smsTexts(shared.dataDir).filter((t) => t.to === crew.e164).map((t) => /^(\d{6}) is your .* driver code/.exec(t.text)?.[1]).filter(Boolean).at(-1);
    await expect.poll(codeOf, { timeout: 30_000 }).toBeTruthy();
    await page.getByLabel('Code').fill(codeOf()!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: `Job ${ref}` }).waitFor();

    const steps = page.getByRole('group', { name: 'Job steps' });
    // Nothing to report before the passenger is on board.
    await steps.getByRole('button', { name: 'Accept', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Report a found item' }).count()).toBe(0);
    for (const step of ['Accept', 'On my way', 'Arrived', 'Passenger on board']) {
      await steps.getByRole('button', { name: step, exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Saved: ${step}.` }).waitFor();
    }
    await page.getByRole('button', { name: 'Report a found item' }).click();
    await page.getByRole('heading', { name: 'Item found in the car' }).waitFor();
    // The form's own rule: what was found is needed.
    await page.getByRole('button', { name: 'Send to the office' }).click();
    await page.getByText('Enter what you found.').waitFor();
    expect(await page.getByLabel('What did you find?').getAttribute('aria-invalid')).toBe('true');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('What did you find?').fill('A navy blue scarf');
    await page.getByLabel('Where in the car?').fill('Back seat, behind the driver');
    await page.getByRole('button', { name: 'Send to the office' }).click();
    const thanks = page.getByRole('status').filter({ hasText: /^Thank you\. The office has the item on record as LP-\d{4,}\.$/ });
    await thanks.waitFor();
    const number = /LP-\d+/.exec((await thanks.textContent())!)![0];
    expect(await page.getByRole('heading', { name: 'Item found in the car' }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await context.close();

    // The office's Lost property: the entry, found today in that car, linked to the booking and the driver.
    const list = await api(`/operator/casework/lost-property?status=open&q=${encodeURIComponent(ref)}`, undefined, await office());
    const row = list.body.rows.find((r: any) => r.number === number);
    expect(row).toMatchObject({ kind: 'found', source: 'driver', booking_reference: ref, booking_linked: true, driver_name: crew.name, vehicle_registration: crew.plate });
    const entry = (await api(`/operator/casework/lost-property/${row.id}`, undefined, await office())).body.entry;
    expect(entry).toMatchObject({ description: 'A navy blue scarf', found_place: 'Back seat, behind the driver', found_on: ukDateInDays(0) });
  });
});

describe('a Lost Item message through Contact Us', () => {
  it("becomes a lost property entry linked to its booking and driver, which the office closes with an outcome e-mailed to the owner", async () => {
    const crew = await newDriverAndCar();
    const owner = `owner.${Date.now()}@example.com`;
    const booking = await book(owner);
    const ref = booking.booking_number;
    expect((await api(`/operator/bookings/${ref}/driver`, { driver_id: crew.id, car_id: crew.carId }, await office())).status).toBe(200);

    const context: BrowserContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shared.url}/contactus`);
    await page.getByRole('heading', { name: 'Contact Us' }).waitFor();
    await page.getByLabel('First name').fill('Harriet');
    await page.getByLabel('Last name').fill('Vane');
    await page.getByLabel('Email').fill(owner);
    await page.getByLabel('Reason for your query').selectOption('Lost Item');
    // Typed as a passenger might: in small letters.
    await page.getByLabel('Booking number (if you have one)').fill(ref.toLowerCase());
    await page.getByLabel('Your message').fill('I left a green umbrella on the back seat.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('alertdialog', { name: 'Form Submitted' }).waitFor();

    // The office: Lost property, the entry among the open ones, linked to the booking, its driver and car.
    await page.goto(`${shared.url}/operator/login`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Lost property' }).click();
    await page.getByRole('heading', { name: 'Lost property', level: 1 }).waitFor();
    await page.getByLabel('Search').fill(ref);
    await page.getByRole('button', { name: 'Show' }).click();
    const row = page.getByRole('row').filter({ hasText: ref });
    await row.waitFor();
    expect(await row.textContent()).toContain(crew.name);
    expect(await row.textContent()).toContain('green umbrella');
    expect(await violations(page)).toEqual([]);
    await row.getByRole('link', { name: /^LP-\d+$/ }).click();
    await page.getByRole('heading', { name: /^Lost property LP-\d+$/ }).waitFor();
    expect(new URL(page.url()).search).toMatch(/^\?id=\d+$/);
    const facts = (await page.locator('.cw-facts').textContent())!;
    for (const shown of [ref, crew.name, crew.plate, 'Contact Us form']) expect(facts).toContain(shown);
    expect(await page.getByLabel('Description of the item').inputValue()).toBe('I left a green umbrella on the back seat.');
    expect(await violations(page)).toEqual([]);

    // Closing needs the outcome: refused on its field, nothing sent.
    await page.getByRole('button', { name: 'Close the entry' }).click();
    await page.getByText('Enter the outcome.').waitFor();
    expect(await page.getByLabel('Outcome').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Outcome').fill('Found by the driver and returned to you at the office on Friday.');
    await page.getByRole('button', { name: 'Close the entry' }).click();
    await page.getByText(`Closed. The outcome has been e-mailed to ${owner}.`).waitFor();
    await page.locator('.op-status.cw-closed').first().waitFor();
    expect(await page.getByRole('button', { name: 'Close the entry' }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    // On a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await context.close();

    // The owner's e-mail, once, with the outcome.
    const toOwner = () => outboxMails(shared.dataDir).filter((m) => m.headers.to?.includes(owner) && /^Your lost property report LP-/.test(m.headers.subject ?? ''));
    await expect.poll(() => toOwner().length, { timeout: 30_000 }).toBe(1);
    expect(toOwner()[0].texts.join(' ')).toContain('Found by the driver and returned to you at the office on Friday.');
  });
});
