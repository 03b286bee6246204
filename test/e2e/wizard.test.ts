// The booking wizard's rules (SPEC 2 to 5 and 8) in Chromium against the real
// server, with the operator's settings switched through the admin module.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { eventCount, machinesReceived, watchMachines } from './machineWatch';

const suite = onSharedServer();
const { server, setting } = suite;

async function open(path = '/'): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await watchMachines(page);
  await page.goto(server.url + path);
  await page.getByRole('tablist', { name: 'Booking type' }).waitFor();
  return page;
}

async function choose(page: Page, label: string, typed: string, nth = 0) {
  await page.getByRole('combobox', { name: label }).nth(nth).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

async function quote(page: Page, opts: { from?: string; to?: string; days?: number } = {}) {
  await choose(page, 'Pickup address', opts.from ?? 'Paddington');
  await choose(page, 'Drop-off address', opts.to ?? 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(opts.days ?? 3));
}

async function getPrices(page: Page) {
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.locator('.vehicle-card').first().waitFor();
}

const optionTexts = (page: Page, label: string) => page.getByLabel(label, { exact: true }).locator('option').allTextContents();

describe('home: tabs and forms', () => {
  it('shows the tabs per IS_QUOTATION and HOURLY_RATE_STATUS, opening on hourly when both show', async () => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    let page = await open();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['GET A QUOTE', 'Hourly Rate']);
    expect(await page.getByRole('tab', { name: 'Hourly Rate' }).getAttribute('aria-selected')).toBe('true');
    await setting('IS_QUOTATION', 'enable');
    page = await open();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Hourly Rate']);
    await setting('IS_QUOTATION', 'disable');
    await setting('HOURLY_RATE_STATUS', 'disable');
    page = await open();
    expect(await page.getByRole('tab').allTextContents()).toEqual(['GET A QUOTE']);
    expect(await page.getByRole('tab', { name: 'GET A QUOTE' }).getAttribute('aria-selected')).toBe('true');
  });

  it('offers SPEC 5 ranges and shows extras only when their price is above 0', async () => {
    await setting('BABY_PRICE_PER_SEAT', '0');
    const page = await open();
    expect(await optionTexts(page, 'Passengers')).toHaveLength(51);
    expect(await optionTexts(page, 'Luggage')).toHaveLength(21);
    expect(await optionTexts(page, 'Hand luggage')).toHaveLength(21);
    expect(await optionTexts(page, 'Booster seats')).toHaveLength(16);
    const waiting = await optionTexts(page, 'Waiting minutes');
    expect([waiting.length, waiting[1], waiting.at(-1)]).toEqual([21, '5', '100']);
    expect(await page.getByLabel('Pickup time hour').locator('option').allTextContents()).toEqual(
      Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')));
    expect(await page.getByLabel('Pickup time minute').locator('option').allTextContents()).toHaveLength(12);
    expect(await page.getByLabel('Baby seats').count()).toBe(0);
    expect(await page.getByLabel(/Meet and Greet/).count()).toBe(1);
    expect(await page.getByLabel('Pickup date').getAttribute('min')).toBe(ukDateInDays(0));
  });

  it('asks for a flight or train only for airports and terminals, and reveals the return leg', async () => {
    const page = await open();
    const flight = page.getByLabel('Flight, train or ferry number', { exact: true });
    await choose(page, 'Pickup address', 'Paddington');
    expect(await flight.count()).toBe(0);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Gatwick Airport North Terminal, Crawley RH6 0PJ');
    expect(await flight.count()).toBe(1);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('somewhere near the TERMINAL building');
    expect(await flight.count()).toBe(1);
    expect(await page.getByLabel('Return date').count()).toBe(0);
    await page.getByText('Return', { exact: true }).click();
    expect(await page.getByLabel('Return date').count()).toBe(1);
    expect(await page.getByLabel('Return passengers').count()).toBe(1);
    const returnFlight = page.getByLabel('Return flight, train or ferry number');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    expect(await returnFlight.count()).toBe(0);
    await choose(page, 'Drop-off address', 'Stansted');
    expect(await returnFlight.count()).toBe(1);
  });

  it('starts the return on the pickup date, and moves it along when the pickup moves past it', async () => {
    const page = await open();
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByText('Return', { exact: true }).click();
    const back = page.getByLabel('Return date');
    expect(await back.inputValue()).toBe(ukDateInDays(3));
    await back.fill(ukDateInDays(5));
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    expect(await back.inputValue()).toBe(ukDateInDays(5));
    await page.getByLabel('Pickup date').fill(ukDateInDays(8));
    await expect.poll(() => back.inputValue()).toBe(ukDateInDays(8));
    expect(await page.locator('#return_date-error').count()).toBe(0);
  });

  it('adds stops with the top 5 suggestions, and prices the detour', async () => {
    const page = await open();
    await quote(page);
    await page.getByRole('button', { name: '+ Add a stop' }).click();
    await page.getByRole('combobox', { name: 'Street name or place' }).fill('a');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').count()).toBe(5);
    await page.getByRole('combobox', { name: 'Street name or place' }).fill('Wembley');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await page.getByRole('complementary').textContent()).toContain('Stop 1Wembley Stadium, Wembley HA9 0WS');
  });

  it('keeps the hourly form on every change and prices hours (SPEC 5 options)', async () => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    const page = await open();
    await page.getByLabel('Duration').waitFor();
    expect(await page.getByLabel('Duration').locator('option').allTextContents()).toHaveLength(21);
    const hours = await page.getByLabel('Pickup time hour').locator('option').allTextContents();
    // Decision 20: time order, with 12 midnight and 12 noon (stored as 12am and 12pm).
    expect(hours.slice(0, 2).concat(hours.slice(10, 14), hours.slice(-1))).toEqual(['12 midnight', '1am', '10am', '11am', '12 noon', '1pm', '11pm']);
    await choose(page, 'Pickup address', 'Canary Wharf');
    await page.getByLabel('Duration').selectOption('6hour');
    await page.reload();
    await page.getByRole('tablist').waitFor();
    expect(await page.getByRole('combobox', { name: 'Pickup address' }).inputValue()).toBe('Canary Wharf, One Canada Square, London E14 5AB');
    expect(await page.getByLabel('Duration').inputValue()).toBe('6hour');
    await page.getByLabel('Pickup date').fill(ukDateInDays(2));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await page.getByRole('complementary').textContent()).toContain('6 hours');
  });
});

describe('prices and errors', () => {
  it('names every limit the largest vehicle exceeds (SPEC 8)', async () => {
    const page = await open();
    await quote(page);
    await page.getByLabel('Passengers').selectOption('50');
    await page.getByLabel('Luggage', { exact: true }).selectOption('20');
    await page.getByRole('button', { name: 'Get prices' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Error' });
    expect(await dialog.textContent()).toContain(
      "Sorry we don't have any vehicle with requested options, the following limits are exceeded: Passengers exceeded by 42, Luggage exceeded by 12");
  });

  it('opens the urgent notice for a pickup inside the grace period, goes to /quoteView after 1 s and closes after 3 s', async () => {
    const page = await open();
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    // The form opens on the earliest bookable pickup (decision 20); an hour earlier is inside the grace period.
    const hour = page.getByLabel('Pickup time hour');
    const opensAt = await hour.evaluate((el: HTMLSelectElement) => el.selectedIndex);
    if (opensAt === 0) await page.getByLabel('Pickup date').fill(ukDateInDays(0));
    await hour.selectOption({ index: (opensAt + 23) % 24 });
    await page.getByRole('button', { name: 'Get prices' }).click();
    const notice = page.getByRole('alertdialog', { name: 'Urgent Booking!' });
    await notice.waitFor();
    const opened = Date.now();
    expect(await notice.textContent()).toContain('at least 2 hours before pickup');
    expect(await notice.textContent()).toContain('+44 20 7946 0321');
    await page.waitForURL('**/quoteView');
    expect(Date.now() - opened).toBeGreaterThan(700);
    await notice.waitFor({ state: 'detached' });
    expect(Date.now() - opened).toBeGreaterThan(2500);
    // The quote form is prefilled from the booking form, time in 24-hour form.
    expect(await page.getByLabel('Pickup address').inputValue()).toBe('Paddington Station, Praed Street, London W2 1HQ');
    expect(await page.getByLabel('Time').inputValue()).toMatch(/^\d{2}:\d{2}$/);
    // Decision 22: with the notice gone, the page still says why the visitor is here, with the number to call.
    const why = page.getByRole('region', { name: 'Your pickup is too soon to book online' });
    expect(await why.textContent()).toContain('Pickups within 2 hours are booked by phone or with this form');
    expect(await why.getByRole('link', { name: '+44 20 7946 0321' }).getAttribute('href')).toBe('tel:+442079460321');
    // It goes when the visitor leaves; /quoteView opened on its own has nothing to explain.
    await page.getByRole('link', { name: '← Back' }).click();
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    await page.goto(`${server.url}/quoteView`);
    await page.getByRole('heading', { name: 'Quote Now' }).waitFor();
    expect(await page.getByRole('region', { name: /too soon|cannot take/ }).count()).toBe(0);
  });

  it('treats a banned address as urgent too', async () => {
    await server.admin('ban-address', 'Canary Wharf');
    try {
      const page = await open();
      await quote(page);
      await page.getByRole('button', { name: 'Get prices' }).click();
      await page.getByRole('alertdialog', { name: 'Urgent Booking!' }).waitFor();
      await page.waitForURL('**/quoteView');
      await page.getByRole('region', { name: 'We cannot take this address online' }).waitFor();
    } finally {
      await server.admin('unban-address', 'Canary Wharf');
    }
  });

  it('keeps only the cheapest company when MULTIPLE_PRICES and CHEAPEST_COMPANY_PRICE are enable', async () => {
    await setting('CHEAPEST_COMPANY_PRICE', 'enable');
    const page = await open();
    await quote(page);
    await getPrices(page);
    const companies = new Set(await page.locator('.vehicle-card:not(.lowest) .vehicle-company').allTextContents());
    expect(companies.size).toBe(1);
  });
});

describe('one price (decision 21)', () => {
  /** '£1,234.50' -> 123450 pence. */
  const pence = (text: string | null) => Math.round(Number((text ?? '').replace(/[^\d.]/g, '')) * 100);

  it.each([['yes', true], ['no', false]])('shows the same amount from the vehicle card to the confirmation with ROUND_OFF %s', async (roundOff, whole) => {
    await setting('ROUND_OFF', roundOff);
    await setting('MULTIPLE_OPERATORS', 'disable');
    await setting('MEET_AND_GREET', '12.45');
    const page = await open();
    await quote(page, { from: 'Heathrow', to: 'Canary Wharf' });
    await page.getByLabel(/Meet and Greet/).check();
    await getPrices(page);

    // Cheapest first, the vehicles without a price last.
    const shown = await page.locator('.vehicle-card .vehicle-price').allTextContents();
    const firstOnRequest = shown.indexOf('Price on request');
    const amounts = shown.slice(0, firstOnRequest === -1 ? undefined : firstOnRequest).map(pence);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    if (firstOnRequest !== -1) expect(shown.slice(firstOnRequest).every((t) => t === 'Price on request')).toBe(true);
    // Meet and Greet at £12.45 puts pence into every fare: only the server's rounding takes them out.
    if (whole) expect(amounts.every((a) => a % 100 === 0)).toBe(true);
    else expect(amounts.some((a) => a % 100 !== 0)).toBe(true);

    const card = page.locator('.vehicle-card').first();
    const cardPrice = pence(await card.locator('.vehicle-price').textContent());
    // The breakdown adds up to the card's price, a Rounding line included when the operator rounds.
    await card.getByRole('button', { name: 'See Details' }).click();
    const rows = await card.locator('.vehicle-more tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']));
    const lines = rows.filter(([label]) => label !== 'Price per vehicle');
    const signed = (t: string) => (t.trim().startsWith('-') ? -1 : 1) * pence(t);
    expect(lines.reduce((sum, [, amount]) => sum + signed(amount), 0)).toBe(cardPrice);
    expect(lines.some(([label]) => label === 'Rounding')).toBe(whole ? lines.some(([, a]) => pence(a) % 100 !== 0) : false);
    await card.getByRole('button', { name: 'Book Now' }).click();
    await page.getByLabel('First Name').fill('Olive');
    await page.getByLabel('Last Name').fill('Penn');
    await page.getByLabel('Email').fill(`olive.${roundOff}@example.com`);
    await page.getByLabel('Phone Number').fill('07700 900123');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(pence(await page.locator('.vehicle-summary-price').textContent())).toBe(cardPrice);
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    expect(pence(await page.getByRole('row', { name: /Total amount/ }).getByRole('cell').textContent())).toBe(cardPrice);
  });
});

describe('quotation', () => {
  it('shows the Lowest Price card with MULTIPLE_OPERATORS, list and grid, details and quantities', async () => {
    let page = await open();
    await quote(page);
    await getPrices(page);
    const lowest = page.getByRole('article', { name: 'Lowest Price' });
    // Cards offered without a price ('Price on request') do not count.
    const prices = (await page.locator('.vehicle-card:not(.lowest) .vehicle-price').allTextContents())
      .map((p) => Number(p.replace(/[£,]/g, ''))).filter(Number.isFinite);
    expect(await lowest.locator('.vehicle-price').textContent()).toBe(`£${Math.min(...prices)}`);
    await page.getByRole('button', { name: 'Grid' }).click();
    expect(await page.locator('.vehicle-list').getAttribute('class')).toContain('grid');
    const card = page.getByRole('article', { name: 'Executive Saloon by Albion Executive Cars' });
    await card.getByRole('button', { name: 'See Details' }).click();
    expect(await card.getByRole('table').textContent()).toContain('Journey fare');
    const options = await card.getByLabel('Number of vehicles').locator('option').allTextContents();
    expect(options).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${n} x Vehicle Selected`));
    // Clicking the Payment step runs the guards: without details it stays on the vehicles. The machine first receives
    // the address asked for; only then is staying put a fact.
    const asked = await eventCount(page, 'url.changed', '/paymentview');
    await page.getByRole('link', { name: /Payment/ }).click();
    await machinesReceived(page, 'url.changed', asked, '/paymentview');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/quotationview');
    await page.getByRole('heading', { name: 'Top results' }).waitFor();

    await setting('MULTIPLE_OPERATORS', 'disable');
    page = await open();
    await quote(page);
    await getPrices(page);
    expect(await page.getByRole('article', { name: 'Lowest Price' }).count()).toBe(0);
  });
});

describe('address suggestions from Google Places', () => {
  // A stand-in for the Maps JavaScript API: the parts use-places-autocomplete calls.
  const MAPS_STUB = `
    window.__placeRequests = [];
    window.google = { maps: {
      LatLng: function (lat, lng) { this.lat = () => lat; this.lng = () => lng; },
      places: {
        PlacesServiceStatus: { OK: 'OK' },
        AutocompleteService: function () {
          this.getPlacePredictions = (req, cb) => {
            window.__placeRequests.push({ ...req, location: req.location && [req.location.lat(), req.location.lng()] });
            cb([{ place_id: 'place-downing', description: '10 Downing Street, London, UK' }], 'OK');
          };
        },
      },
      GeocoderStatus: { OK: 'OK' },
      TravelMode: { DRIVING: 'DRIVING' },
      Map: function (el) { el.setAttribute('data-stub-map', 'yes'); },
      DirectionsService: function () {
        this.route = (req, cb) => { window.__routeRequest = req; cb({ routes: [] }, 'OK'); };
      },
      DirectionsRenderer: function (opts) { window.__routeDrawn = Boolean(opts.map && opts.directions); },
      Geocoder: function () {
        this.geocode = (req, cb) => cb([{ address_components: [{ long_name: 'SW1A 2AA', short_name: 'SW1A 2AA', types: ['postal_code'] }] }], 'OK');
      },
    } };
    window.__bookingMapsReady();`;

  it('adds Google suggestions after the operator\'s own only when GOOGLE_API_KEY is set, restricted as SPEC 5 says', async () => {
    let page = await open();
    let scripts = 0;
    await page.route('https://maps.googleapis.com/**', (r) => { scripts++; return r.fulfill({ contentType: 'text/javascript', body: MAPS_STUB }); });
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('London');
    // The operator's own suggestions have come: the search ran, without asking Google for anything.
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    expect(scripts).toBe(0);
    expect(await page.getByRole('listbox').getByRole('option', { name: '10 Downing Street, London, UK' }).count()).toBe(0);

    await setting('GOOGLE_API_KEY', 'test-maps-key');
    const context = await suite.browser.newContext({ geolocation: { latitude: 51.5, longitude: -0.12 }, permissions: ['geolocation'] });
    page = await context.newPage();
    await page.route('https://maps.googleapis.com/**', (r) => r.fulfill({ contentType: 'text/javascript', body: MAPS_STUB }));
    const script = page.waitForRequest((r) => r.url().startsWith('https://maps.googleapis.com/maps/api/js'));
    await page.goto(server.url);
    expect(new URL((await script).url()).searchParams.get('key')).toBe('test-maps-key');
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Paddington');
    const options = page.getByRole('listbox').getByRole('option');
    await options.filter({ hasText: 'Downing' }).waitFor();
    expect(await options.allTextContents()).toEqual(['Paddington Station, Praed Street, London W2 1HQ', '10 Downing Street, London, UK']);
    const request = (await page.evaluate(() => (window as any).__placeRequests.at(-1))) as Record<string, unknown>;
    expect(request).toMatchObject({
      input: 'Paddington', componentRestrictions: { country: 'gb' }, radius: 50000, types: ['geocode', 'establishment'],
      location: [51.5, -0.12], bounds: { south: 51.45, north: 51.55 },
    });
    await options.filter({ hasText: 'Downing' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Pickup address' }).inputValue()).toBe('10 Downing Street, London, UK SW1A 2AA');

    // With the maps script loaded, the quotation draws the driving route on a Google map.
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await getPrices(page);
    const map = page.getByRole('img', { name: /Map of the route from Paddington Station/ });
    expect(await map.getAttribute('data-stub-map')).toBe('yes');
    expect(await map.evaluate((el) => getComputedStyle(el).height)).toBe('200px');
    expect(await page.evaluate(() => [(window as any).__routeRequest.origin, (window as any).__routeRequest.travelMode, (window as any).__routeDrawn]))
      .toEqual(['Paddington Station, Praed Street, London W2 1HQ, UK', 'DRIVING', true]);
  });
});

describe('more of the home and quotation screens', () => {
  it('shows the price loader with its legends while prices are fetched', async () => {
    const page = await open();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/api/v1/calculate-distance-price', async (route) => { await held; await route.continue(); });
    await quote(page);
    await page.getByRole('button', { name: 'Get prices' }).click();
    const loader = page.getByRole('status').filter({ hasText: 'Please wait while fetching prices' });
    await loader.waitFor();
    for (const legend of ['Lowest Price', 'Multiple Companies', 'Cheapest Price of a Company']) expect(await loader.textContent()).toContain(legend);
    release();
    await page.waitForURL('**/quotationview');
  });

  it('shows each optional section by its setting, and a popular location fills the drop-off', async () => {
    let page = await open();
    for (const name of ['Our fleet', 'Popular locations', 'Talk to us']) await page.getByRole('heading', { name }).waitFor();
    expect(await page.getByRole('region', { name: 'Talk to us' }).textContent()).toContain('27 Old Gloucester Street, London WC1N 3AX');
    await page.getByRole('button', { name: 'London City Airport' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Drop-off address' }).inputValue()).toBe('London City Airport, Hartmann Road, London E16 2PX');
    await setting('SHOW_COMPANY_FLEET_VIEW_SECTION', 'disable');
    await setting('SHOW_POPULAR_LOCATION_PAGE', 'disable');
    await setting('SHOW_COMPANY_CONTACT_SECTION', 'disable');
    page = await open();
    for (const name of ['Our fleet', 'Popular locations', 'Talk to us']) expect(await page.getByRole('heading', { name }).count()).toBe(0);
  });

  it('offers an orange Contact Us instead of Book Now for a vehicle without a price', async () => {
    await server.admin('set-rate', '--company', 'Metro Cars London', '--vehicle', 'Estate', '--base', '0', '--minimum', '0', '--band', '0:0');
    try {
      const page = await open();
      await quote(page);
      await getPrices(page);
      const card = page.getByRole('article', { name: 'Estate by Metro Cars London' });
      expect(await card.getByRole('button', { name: 'Book Now' }).count()).toBe(0);
      await card.getByRole('link', { name: 'Contact Us' }).click();
      await page.waitForURL('**/quoteView');
    } finally {
      await server.admin('set-rate', '--company', 'Metro Cars London', '--vehicle', 'Estate', '--base', '3.50', '--minimum', '21',
        '--hourly', '35', '--band', '0:2.55', '--band', '10:2.05');
    }
  });
});
