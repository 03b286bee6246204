// Settings overlay, Back/Forward and typed URLs go through the booking machine,
// and a price error reaches the visitor as a dialog.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';

const suite = onSharedServer();
const { server } = suite;

async function choose(page: Page, label: string, typed: string) {
  const input = page.getByRole('combobox', { name: label });
  await input.fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

async function toQuotation(page: Page) {
  await page.goto(server.url);
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(3));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
}

describe('navigation through the booking machine', () => {
  it('renders the first page with the settings sent in it, never waiting for GET /setting (decision 30)', async () => {
    const page = await suite.browser.newPage();
    const asked: string[] = [];
    page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/v1/setting') asked.push(r.url()); });
    await page.addInitScript(() => {
      const w = window as unknown as { sawLoading: boolean };
      w.sawLoading = false;
      new MutationObserver(() => { if (document.body?.textContent?.includes('Please wait while loading content')) w.sawLoading = true; })
        .observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(server.url);
    await expect.poll(() => page.getByRole('button', { name: 'Get prices' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => Array.isArray((window as unknown as { __APP_SETTINGS__: unknown }).__APP_SETTINGS__))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { sawLoading: boolean }).sawLoading)).toBe(false);
    expect(asked).toEqual([]);
    // And stored as fetched ones are (SPEC 7 'setting').
    expect(await page.evaluate(() => localStorage.getItem('appSettings'))).toContain('SHOW_NAVBAR_PAGE');
    await page.close();
  });

  it('shows the loading overlay until the settings arrive, when the page came without them', async () => {
    const page = await suite.browser.newPage();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    // As the server sends the page when it could not read the settings.
    await page.route((url) => url.origin === server.url && !/\.[a-z0-9]+$/i.test(url.pathname) && !url.pathname.startsWith('/api/'), async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: (await res.text()).replace(/window\.__APP_SETTINGS__=.*?<\/script>/, 'window.__APP_SETTINGS__=null</script>') });
    });
    await page.route('**/api/v1/setting', async (route) => { await held; await route.continue(); });
    await page.goto(server.url);
    await expect.poll(() => page.getByText('Please wait while loading content').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Get prices' }).count()).toBe(0);
    release();
    await expect.poll(() => page.getByRole('button', { name: 'Get prices' }).isVisible()).toBe(true);
    expect(await page.getByText('Please wait while loading content').count()).toBe(0);
    await page.close();
  });

  it('walks the steps with Back and Forward, and a typed URL falls back through the guards', async () => {
    const page = await suite.browser.newPage();
    await toQuotation(page);
    await page.getByRole('button', { name: 'Book Now' }).first().click();
    await page.waitForURL('**/personalDetailView');

    await page.goBack();
    await page.waitForURL('**/quotationview');
    await expect.poll(() => page.getByRole('heading', { name: 'Top results' }).isVisible()).toBe(true);
    await page.goForward();
    await page.waitForURL('**/personalDetailView');
    await expect.poll(() => page.getByRole('heading', { name: 'Personal details' }).isVisible()).toBe(true);

    // No registration yet: /paymentview falls back to the details step, replacing the history entry.
    await page.goto(`${server.url}/paymentview`);
    await page.waitForURL('**/personalDetailView');

    // Back to the form: it refills from the saved booking form.
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByRole('combobox', { name: 'Pickup address' }).inputValue())
      .toBe('Paddington Station, Praed Street, London W2 1HQ');
    // The in-page Back link on the quotation goes through the machine too.
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.getByRole('link', { name: '← Back' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.close();
  });

  it('leaves no trap in the history after a guard turns a typed address back: Back returns to the page before', async () => {
    // SPEC 2: a step the visitor has no data for sends them home; that redirect replaces the entry it came from, so
    // Back goes to where they were, not to the address that would send them home again.
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(`${server.url}/ourfleet`);
    await page.getByRole('heading', { name: 'Our Fleet' }).waitFor();
    await page.goto(`${server.url}/paymentview`);
    await page.waitForURL((u) => u.pathname === '/home');
    await page.getByRole('tab', { name: 'GET A QUOTE' }).waitFor();
    expect(await page.evaluate(() => history.length)).toBe(3); // about:blank, /ourfleet, /home (in place of /paymentview)
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/ourfleet');
    await page.getByRole('heading', { name: 'Our Fleet' }).waitFor();
    await page.goForward();
    await page.waitForURL((u) => u.pathname === '/home');
    await page.context().close();
  });

  it('reloads a step with the same data', async () => {
    const page = await suite.browser.newPage();
    await toQuotation(page);
    const before = await page.locator('.vehicle-price').allTextContents();
    await page.reload();
    await page.waitForURL('**/quotationview');
    await expect.poll(() => page.locator('.vehicle-price').allTextContents()).toEqual(before);
    await page.close();
  });

  it('shows the server message for an address it cannot place under its input, not in a dialog (decision 23)', async () => {
    const page = await suite.browser.newPage();
    await page.goto(server.url);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('12 Imaginary Lane, Nowhere');
    await choose(page, 'Drop-off address', 'Gatwick');
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByRole('button', { name: 'Get prices' }).click();
    const message = page.getByRole('alert').filter({ hasText: 'We could not find "12 Imaginary Lane, Nowhere"' });
    await expect.poll(() => message.isVisible()).toBe(true);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(page.url()).toBe(`${server.url}/`);
    // Nothing typed is lost.
    expect(await page.getByRole('combobox', { name: 'Pickup address' }).inputValue()).toBe('12 Imaginary Lane, Nowhere');
    await page.close();
  });

  it('filters address suggestions by case-insensitive substring and closes them on choice', async () => {
    const page = await suite.browser.newPage();
    await page.goto(server.url);
    const input = page.getByRole('combobox', { name: 'Pickup address' });
    await input.fill('tErMiNaL');
    // The operator's list comes from the server: the suggestions show as soon as it has arrived.
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    const options = await page.getByRole('listbox').getByRole('option').allTextContents();
    expect(options.length).toBeGreaterThan(3);
    for (const o of options) expect(o.toLowerCase()).toContain('terminal');
    await page.getByRole('listbox').getByRole('option').first().click();
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await page.close();
  });
});
