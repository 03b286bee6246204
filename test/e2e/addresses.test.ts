// Decision 23 'Addresses: never price a guess' in Chromium against the real server, at phone and desktop widths:
// an address the server cannot place, or a trip to where it starts, is shown under the address input it is about
// (never the Error dialog) with everything typed kept, on the quote form, a stop, the hourly form and the booking
// call; a capped suggestion list says how many more match; a stop's suggestions close on a pick or when focus leaves.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { encode } from '../../src/domain/encoding';

const suite = onSharedServer();
const { server, setting } = suite;

const NOWHERE = '12 Imaginary Lane, Nowhere';
const notFound = (text: string) => `We could not find "${text}". Pick a suggestion or add the postcode.`;
const SAME_PLACE = 'The pickup and drop-off are the same place. Please enter where you are going.';

async function choose(page: Page, label: string, typed: string, nth = 0) {
  await page.getByRole('combobox', { name: label }).nth(nth).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** The message under an address input: the element its aria-describedby names, once the input is marked invalid. */
async function messageUnder(page: Page, label: string, nth = 0): Promise<string> {
  const input = page.getByRole('combobox', { name: label }).nth(nth);
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const id = await input.getAttribute('aria-describedby');
  return (await page.locator(`[id="${id}"]`).textContent()) ?? '';
}

/** The server's answer to a call the page makes, read in the page with its API keys. */
async function apiCall(page: Page, path: string, body?: unknown) {
  return page.evaluate(async ({ path, body }) => {
    const keys = (window as unknown as { __APP_CONFIG__: { apiPublicKey: string; apiSecretKey: string } }).__APP_CONFIG__;
    const res = await fetch(`/api/v1${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'API-PUBLIC-KEY': keys.apiPublicKey, 'API-SECRET-KEY': keys.apiSecretKey, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  }, { path, body });
}

describe.each([375, 1280])('addresses at %i px', (width) => {
  async function open(path = '/'): Promise<Page> {
    const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await page.goto(server.url + path);
    await page.getByRole('tablist', { name: 'Booking type' }).waitFor();
    return page;
  }

  it('shows an address it cannot place under its input, not in a dialog, and keeps everything typed', async () => {
    const page = await open();
    const pickup = page.getByRole('combobox', { name: 'Pickup address' });
    await pickup.fill(NOWHERE);
    await choose(page, 'Drop-off address', 'Gatwick');
    const dropoff = await page.getByRole('combobox', { name: 'Drop-off address' }).inputValue();
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    await page.getByLabel('Passengers').selectOption('3');
    await page.getByRole('button', { name: 'Get prices' }).click();
    expect(await messageUnder(page, 'Pickup address')).toBe(notFound(NOWHERE));
    expect(await page.getByRole('alert').filter({ hasText: notFound(NOWHERE) }).count()).toBe(1);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/`);
    expect([await pickup.inputValue(), await page.getByRole('combobox', { name: 'Drop-off address' }).inputValue()]).toEqual([NOWHERE, dropoff]);
    expect([await page.getByLabel('Pickup date').inputValue(), await page.getByLabel('Passengers').inputValue()]).toEqual([ukDateInDays(4), '3']);
    // The message stays with the text it is about: a postcode added, it goes, and the trip is priced.
    await pickup.fill(`${NOWHERE} RG1 1AA`);
    await expect.poll(() => pickup.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText(notFound(NOWHERE)).count()).toBe(0);
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.locator('.vehicle-card').first().waitFor();
    await page.context().close();
  });

  it('shows a stop it cannot place under that stop', async () => {
    const page = await open();
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    await page.getByRole('button', { name: '+ Add a stop' }).click();
    await page.getByRole('button', { name: '+ Add a stop' }).click();
    await choose(page, 'Street name or place', 'Wembley', 0);
    const stop2 = page.getByRole('group', { name: 'Stop 2' });
    await stop2.getByRole('combobox', { name: 'Street name or place' }).fill('Imaginary Lane');
    await stop2.getByLabel('Number').fill('12');
    await page.getByRole('button', { name: 'Get prices' }).click();
    expect(await messageUnder(page, 'Street name or place', 1)).toBe(notFound('12 Imaginary Lane'));
    expect(await page.getByRole('group', { name: 'Stop 1' }).getByRole('combobox').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.context().close();
  });

  it('shows a pickup it cannot place under the hourly form\'s pickup', async () => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    const page = await open();
    await page.getByLabel('Duration').waitFor();
    await page.getByRole('combobox', { name: 'Pickup address' }).fill(NOWHERE);
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    await page.getByRole('button', { name: 'Get prices' }).click();
    expect(await messageUnder(page, 'Pickup address')).toBe(notFound(NOWHERE));
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await page.getByLabel('Duration').inputValue()).toBe('4hour');
    await page.context().close();
  });

  it('refuses a trip to where it starts, under the drop-off: the same text at once, the same place from the server', async () => {
    const page = await open();
    await choose(page, 'Pickup address', 'Paddington');
    const pickup = await page.getByRole('combobox', { name: 'Pickup address' }).inputValue();
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill(pickup.toUpperCase());
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    await page.getByRole('button', { name: 'Get prices' }).click();
    expect(await messageUnder(page, 'Drop-off address')).toBe(SAME_PLACE);
    // One airport written two ways: only the server knows they are the same place.
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Heathrow (LHR)');
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Heathrow Airport');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Get prices' }).click();
    expect(await messageUnder(page, 'Drop-off address')).toBe(SAME_PLACE);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/`);
    await page.context().close();
  });

  it('says how many more suggestions match when the list is capped, in a status line', async () => {
    const page = await open();
    const known = (await apiCall(page, '/ai-addresses')) as { address: string }[];
    const matching = (text: string) => known.filter((a) => a.address.toLowerCase().includes(text)).length;
    expect(matching('london')).toBeGreaterThan(8);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('London');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').count()).toBe(8);
    const status = page.getByRole('status').filter({ hasText: 'keep typing' });
    expect(await status.textContent()).toBe(`${matching('london') - 8} more — keep typing to narrow`);
    expect(await status.isVisible()).toBe(true);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('London Heathrow');
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Heathrow');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').count()).toBe(matching('heathrow'));
    expect(await page.getByText('keep typing to narrow').count()).toBe(0);
    // A stop shows its top 5.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '+ Add a stop' }).click();
    await page.getByRole('combobox', { name: 'Street name or place' }).fill('a');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').count()).toBe(5);
    expect(await page.getByRole('status').filter({ hasText: 'keep typing' }).textContent()).toBe(`${matching('a') - 5} more — keep typing to narrow`);
    await page.context().close();
  });

  it('passes axe\'s WCAG 2.2 AA checks with a refused address shown and a capped list open', async () => {
    const page = await open();
    await page.getByRole('combobox', { name: 'Pickup address' }).fill(NOWHERE);
    await page.getByLabel('Pickup date').fill(ukDateInDays(4));
    await choose(page, 'Drop-off address', 'Gatwick');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await messageUnder(page, 'Pickup address');
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('London');
    await page.getByRole('status').filter({ hasText: 'keep typing' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  it('closes a stop\'s suggestions when one is picked and when focus leaves', async () => {
    const page = await open();
    await page.getByRole('button', { name: '+ Add a stop' }).click();
    const street = page.getByRole('combobox', { name: 'Street name or place' });
    await street.fill('Station');
    await page.getByRole('listbox').getByRole('option').first().click();
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await street.getAttribute('aria-expanded')).toBe('false');
    expect(await street.inputValue()).toContain('Station');
    // Focus leaves by the keyboard...
    await street.fill('Airport');
    expect(await page.getByRole('listbox').count()).toBe(1);
    await page.keyboard.press('Tab');
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await street.getAttribute('aria-expanded')).toBe('false');
    // ... or by a press elsewhere on the page.
    await street.click();
    expect(await page.getByRole('listbox').count()).toBe(1);
    await page.getByRole('heading', { level: 1 }).click();
    expect(await page.getByRole('listbox').count()).toBe(0);
    await page.context().close();
  });

  it('takes the visitor back to the form when the booking call refuses a saved address', async () => {
    const page = await open();
    const trip = {
      pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Canary Wharf, One Canada Square, London E14 5AB',
      pickup_date: ukDateInDays(4), pickup_hour: '3pm', pickup_min: '05', passengers: 1,
    };
    const priced = (await apiCall(page, '/calculate-distance-price', trip)) as { price_details: unknown[] };
    // A trip saved on an earlier visit whose pickup the server no longer places.
    const saved = {
      BookingType: 'milleage', BookingForm: { ...trip, pickup: NOWHERE }, PriceDetails: priced.price_details,
      selectedVehicleData: priced.price_details[0], registrationMode: 'guest_login',
      registrationData: { firstName: 'Ada', surname: 'Byron', number: '+447700900123', email: `ada.${width}@example.com` },
    };
    await page.evaluate((items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); },
      Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, encode(v)])));
    await page.goto(`${server.url}/paymentview`);
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    expect(await messageUnder(page, 'Pickup address')).toBe(notFound(NOWHERE));
    expect(new URL(page.url()).pathname).toBe('/home');
    expect(await page.getByRole('combobox', { name: 'Drop-off address' }).inputValue()).toBe(trip.dropoff);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // The old prices are gone with it.
    await page.goto(`${server.url}/quotationview`);
    await page.waitForURL('**/home');
    await page.context().close();
  });
});
