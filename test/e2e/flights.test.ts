// Airport pickups that follow the flight (issue 42), in Chromium against the real server and its local test flight
// service: a passenger at 375 px types a flight that is no flight (refused on the field), then a typo (flagged on the
// details step, the booking goes on), then the right number (its landing and terminal shown); the flight is 55 minutes
// late, so the server's watcher moves the pickup: the passenger's page, the office's board at 1280 px and the driver's
// job at 375 px each show the new time beside the time booked, and the passenger and the office are told once.
import { describe, expect, it } from 'vitest';
import { onSharedServer, ukDateInDays, chooseAddress } from './harness';
import { violations } from './axe';
import { smsTexts } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { TRAVEL_REFERENCE_PROBLEM } from '../../src/domain/flightNumbers';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
const GRAHAM = { name: 'Graham Ellis', mobile: '07700 900301', e164: '+447700900301', car: 'RG20 TVC' };
const PICKUP = 'Heathrow Airport Terminal 5, Hounslow TW6 2GA';
const DROPOFF = 'Reading Station, Station Hill, Reading RG1 1LZ';
const DATE = ukDateInDays(23);
const DAY_WORDS = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${DATE}T00:00:00Z`));

const api = async (at: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${at}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
};

const texts = () => smsTexts(shared.dataDir);


describe('an airport pickup that follows its flight', () => {
  it('flags a typo at booking, and shows the pickup moved by a late landing on every page', async () => {
    // The test flight service: BA 117 from New York, due 06:45, lands 55 minutes late at Terminal 5.
    const scripted = await fetch(`${shared.url}/test-flights/flights/BA117`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ date: DATE, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55, terminal: '5' }),
    });
    expect(scripted.status).toBe(200);

    const passengerContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const page = await passengerContext.newPage();
    await page.goto(shared.url);
    await chooseAddress(page, 'Pickup address', 'terminal 5', PICKUP);
    await chooseAddress(page, 'Drop-off address', 'reading station', DROPOFF);
    await page.getByLabel('Pickup date').fill(DATE);
    await page.getByLabel('Pickup time hour').selectOption({ label: '07' });
    await page.getByLabel('Pickup time minute').selectOption('15');
    await page.getByLabel('Passengers').selectOption('2');
    // Text that is no flight, train or ferry is refused on the field, with what to type.
    const flightField = page.getByLabel('Flight, train or ferry number');
    await flightField.fill('my flight');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.getByText(TRAVEL_REFERENCE_PROBLEM).waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/quotationview');
    // A typo: BA 238 does not land at Heathrow that day. Taken, then flagged on the details step.
    await flightField.fill('ba238');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.getByRole('article', { name: /by Thames Valley Chauffeurs$/ }).first().getByRole('button', { name: 'Book Now' }).click();
    await page.waitForURL('**/personalDetailView');
    const detailsFlight = page.getByLabel('Flight, train or ferry number');
    expect(await detailsFlight.inputValue()).toBe('BA 238');
    await page.getByRole('status').filter({ hasText: `BA 238 does not land at Heathrow on ${DAY_WORDS}: check the number` }).waitFor({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
    // Corrected on the step: the right flight, when it lands and its terminal.
    await detailsFlight.fill('BA 0117');
    await page.getByRole('status').filter({ hasText: 'BA 117 delayed: lands 07:40 (due 06:45), terminal 5' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText(/does not land at Heathrow/).count()).toBe(0);
    await page.getByLabel('First Name').fill('Priya');
    await page.getByLabel('Last Name').fill('Raman');
    await page.getByLabel('Email').fill(`priya.flight.${Date.now()}@example.com`);
    await page.getByLabel('Phone Number').fill('07700 900777');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    const ref = /BK-[A-Z2-9]{8}/.exec((await page.locator('main').textContent())!)![0];

    // The passenger's page: the watcher (every 2 s here) has moved the pickup to the landing plus 30 minutes.
    await page.getByRole('link', { name: 'Manage your booking' }).click();
    await page.getByText(`Booking ${ref}`).waitFor();
    const moved = 'Pickup moved to 08:10 (booked 07:15)';
    await page.getByText(moved).waitFor({ timeout: 30_000 });
    await page.getByText('BA 117 delayed: lands 07:40 (due 06:45), terminal 5').waitFor();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('08:10');
    expect(await violations(page)).toEqual([]);
    // Told once, by text and by e-mail (the outbox).
    await expect.poll(() => texts().filter((t) => t.to === '+447700900777' && t.text.includes(`your pickup for ${ref} is now at 08:10 (booked 07:15)`)).length, { timeout: 30_000 }).toBe(1);

    // The office's board at 1280 px: the new time, the flight, the time booked.
    const officeContext = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const board = await officeContext.newPage();
    await board.goto(`${shared.url}/operator?tab=upcoming&q=${ref}`);
    await board.getByLabel('E-mail').fill(ADMIN.email);
    await board.getByLabel('Password').fill(ADMIN.password);
    await board.getByRole('button', { name: 'Sign in' }).click();
    const row = board.getByRole('row').filter({ hasText: ref });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(moved);
    expect(await row.getByRole('cell').first().textContent()).toContain(ref);
    expect(await row.textContent()).toContain('BA 117 delayed: lands 07:40 (due 06:45)');
    expect(await row.textContent()).toContain('08:10');
    // The booking's page, and its timeline: what the service said.
    await row.getByRole('link', { name: ref }).click();
    await board.getByRole('heading', { name: 'Timeline' }).waitFor();
    await board.getByText(moved).waitFor();
    await board.getByRole('listitem').filter({ hasText: 'Flight: BA 117 delayed: lands 07:40 (due 06:45)' }).first().waitFor();

    // The driver: Graham gets the job and opens it on his phone.
    const office = (await api('/operator/session', ADMIN)).cookie;
    const drivers = (await api('/operator/data/drivers', undefined, { cookie: office })).body.data.drivers as { id: number; name: string }[];
    const cars = (await api('/operator/data/cars', undefined, { cookie: office })).body.data.cars as { id: number; registration: string }[];
    const assigned = await api(`/operator/bookings/${ref}/driver`, {
      driver_id: String(drivers.find((d) => d.name === GRAHAM.name)!.id), car_id: String(cars.find((c) => c.registration === GRAHAM.car)!.id),
    }, { cookie: office });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const driverContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    const driver = await driverContext.newPage();
    const codes = () => texts().filter((t) => t.to === GRAHAM.e164 && /driver code/.test(t.text));
    const before = codes().length;
    await driver.goto(`${shared.url}/driver`);
    await driver.getByLabel('Mobile number').fill(GRAHAM.mobile);
    await driver.getByRole('button', { name: 'Text me a code' }).click();
    await expect.poll(() => codes().length, { timeout: 30_000 }).toBeGreaterThan(before);
    await driver.getByLabel('Code').fill(/^(\d{6})/.exec(codes().at(-1)!.text)![1]);
    await driver.getByRole('button', { name: 'Sign in', exact: true }).click();
    const card = driver.getByRole('link', { name: new RegExp(ref) });
    await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain(moved);
    expect(await card.textContent()).toContain('08:10');
    await card.click();
    await driver.getByRole('heading', { name: `Job ${ref}` }).waitFor();
    await driver.getByText(moved).waitFor();
    await driver.getByText('BA 117 delayed: lands 07:40 (due 06:45), terminal 5').waitFor();
    expect(await driver.locator('.drv-when').textContent()).toContain('08:10');
    expect(await violations(driver)).toEqual([]);
    await Promise.all([passengerContext.close(), officeContext.close(), driverContext.close()]);
  });
});
