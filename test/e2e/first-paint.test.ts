// Issue 12, decision 30: what the first page does and does not do before the visitor acts. It loads only its own
// code (later steps, the account area, the site pages, Google Places are lazy chunks, each with its styles), the
// server sends it brotli, and it asks for the browser location only on a gesture in the form.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';

const suite = onSharedServer();
const { server } = suite;

describe('the first page', () => {
  it('asks for the browser location on the first gesture in the form, never on load', async () => {
    const context = await suite.browser.newContext({ geolocation: { latitude: 51.5, longitude: -0.12 }, permissions: ['geolocation'] });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { asked: number };
      w.asked = 0;
      const real = navigator.geolocation.getCurrentPosition.bind(navigator.geolocation);
      navigator.geolocation.getCurrentPosition = (...args: Parameters<Geolocation['getCurrentPosition']>) => { w.asked++; return real(...args); };
    });
    const chunks: string[] = [];
    page.on('response', (r) => { chunks.push(new URL(r.url()).pathname.slice(1).split('.')[0]); });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    // The page has painted and gone on to fetch where the form leads (App.tsx NEXT_STEPS, after the first paint):
    // whatever it does on load is done by then.
    for (const next of ['QuotationView', 'QuoteView', 'DetailsView']) await expect.poll(() => chunks, { timeout: 10_000 }).toContain(next);
    const asked = () => page.evaluate(() => (window as unknown as { asked: number }).asked);
    expect(await asked()).toBe(0);
    await page.getByRole('combobox', { name: 'Pickup address' }).click();
    await expect.poll(asked).toBe(1);
    // Asked once per page: typing in the other address is another gesture, answered with suggestions, and no second ask.
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Canary');
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    expect(await asked()).toBe(1);
    await context.close();
  });

  it('loads its own script and styles, brotli, and none of the later steps, the account area, the site pages or Places', async () => {
    const page = await suite.browser.newPage();
    const loaded: { path: string; encoding: string | undefined }[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.origin === server.url && /\.(js|css)$/.test(url.pathname)) loaded.push({ path: url.pathname, encoding: r.headers()['content-encoding'] });
    });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    const html = await (await page.request.get(server.url, { headers: { 'Accept-Encoding': 'br' } })).text();
    const first = [...html.matchAll(/(?:src|href)=["']?(\/[^"'\s>]+\.(?:js|css))/g)].map((m) => m[1]);
    expect(first.filter((f) => f.endsWith('.js'))).toHaveLength(1);
    expect(first.filter((f) => f.endsWith('.css'))).toHaveLength(1);
    for (const f of first) expect(loaded.find((l) => l.path === f)?.encoding, f).toBe('br');
    // The next steps are fetched once the form is on screen, before they are needed (App.tsx, NEXT_STEPS).
    const names = () => loaded.map((l) => l.path.slice(1).split('.')[0]);
    // All of where the form leads has been fetched: only then is what was not fetched a fact.
    for (const next of ['QuotationView', 'QuoteView', 'DetailsView']) await expect.poll(names, { timeout: 10_000 }).toContain(next);
    for (const lazy of first) await expect.poll(names, { timeout: 10_000 }).toContain(lazy.slice(1).split('.')[0]);
    // Never on the home page (the demo offers no hourly hire and has no maps key).
    for (const lazy of ['AccountArea', 'CardView', 'SiteArea', 'PaymentView', 'SuccessView', 'useGooglePlaces', 'HourlyForm']) {
      expect(names(), `${lazy} is not part of the home page`).not.toContain(lazy);
    }
    // Below the fold, after the first paint: the sections and the footer still come.
    await page.getByRole('contentinfo').waitFor();
    expect(names()).toContain('SiteFooter');
    expect(names()).toContain('HomeSections');
    // The main script holds no Places or account code (they are chunks of their own, fetched when needed).
    const main = await (await page.request.get(`${server.url}${first.find((f) => f.endsWith('.js'))}`)).text();
    expect(main).not.toContain('AutocompleteService');
    // V8 compiles the main script's functions while it streams in (scripts/parcel-optimizer-compile-hints.cjs); the
    // chunks, most of whose functions never run, are compiled as they are called.
    expect(main.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    const chunk = loaded.find((l) => l.path.includes('QuotationView') && l.path.endsWith('.js'))!.path;
    expect((await (await page.request.get(`${server.url}${chunk}`)).text()).startsWith('//#')).toBe(false);
    expect(main).not.toContain('login-wrap');
    // Nor do its styles hold the account area's, the card page's, the site pages' or what neither home nor the vehicle
    // results show (they come with their chunks: src/web/screens.css).
    const css = await (await page.request.get(`${server.url}${first.find((f) => f.endsWith('.css'))}`)).text();
    for (const rule of ['.login-wrap', '.card-input', '.site-page', '.site-footer-inner', '.success-head', '.dialog-inner', '.fleet-grid', '.pay-option']) {
      expect(css, rule).not.toContain(rule);
    }
    await page.close();
  });

  it('opens a step typed into the address bar with its chunk named in the page, fetched beside the main script', async () => {
    // The page for /quotationview names the files of the quotation view (dist/view-chunks.json, written by the build).
    const chunks = JSON.parse(readFileSync(path.resolve('dist/view-chunks.json'), 'utf8')) as Record<string, string[]>;
    const quotationFiles = chunks.QuotationView;
    // Every file fetched beside the main script slows it down: a view is one script of its own (decision 33), plus the
    // phone library that the forms with a phone field share (package.json, @parcel/bundler-default).
    expect(quotationFiles.filter((f) => f.endsWith('.js'))).toHaveLength(1);
    // Nor a stylesheet: the vehicle results, often the first view, render with the first page's styles.
    expect(quotationFiles.filter((f) => f.endsWith('.css'))).toEqual([]);
    for (const [module, files] of Object.entries(chunks)) expect(files.filter((f) => f.endsWith('.js')).length, module).toBeLessThanOrEqual(2);
    const context = await suite.browser.newContext();
    const html = await (await context.request.get(`${server.url}/quotationview`)).text();
    await context.close();
    for (const f of quotationFiles) expect(html).toContain(f.endsWith('.css') ? `rel="stylesheet" href="${f}"` : `rel="modulepreload" href="${f}"`);
    // Every screen's view (src/domain/screens.ts) is a lazily loaded module of the build, listed under its name.
    const { SCREENS } = await import('../../src/domain/screens');
    for (const screen of Object.values(SCREENS)) if ('view' in screen) expect(Object.keys(chunks), screen.path).toContain(screen.view);

    const page = await suite.browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => { const p = new URL(r.url()).pathname; if (p.endsWith('.js')) requested.push(p); });
    await page.goto(`${server.url}/quotationview`);
    // No prices stored: the guard sends the visitor home, but the quotation's files were already on their way.
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    for (const f of quotationFiles.filter((f) => f.endsWith('.js'))) expect(requested).toContain(f);
    // Each once: the view's import() takes the preloaded module.
    expect(requested.length).toBe(new Set(requested).size);
    await page.close();
  });

  it('says so when a part of the site cannot be loaded (a dropped connection), and shows the step after a reload', async () => {
    const chunks = JSON.parse(readFileSync(path.resolve('dist/view-chunks.json'), 'utf8')) as Record<string, string[]>;
    const files = (view: string) => chunks[view].map((f) => `${server.url}${f}`);
    const getPrices = async (page: Page) => {
      await page.goto(server.url);
      for (const [label, typed] of [['Pickup address', 'Paddington'], ['Drop-off address', 'Canary Wharf']]) {
        await page.getByRole('combobox', { name: label }).fill(typed);
        await page.getByRole('listbox').getByRole('option').first().click();
      }
      await page.getByLabel('Pickup date').fill(ukDateInDays(3));
      await page.getByRole('button', { name: 'Get prices' }).click();
    };

    // The price call's own chunk (SPEC 5's filtering): the call fails with a message, the form stays as typed.
    const pricing = await suite.browser.newPage();
    for (const f of files('priceFiltering')) await pricing.route(f, (route) => route.abort());
    await getPrices(pricing);
    const dialog = pricing.getByRole('alertdialog', { name: 'Error' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('A part of this site could not be loaded. Please check your connection and reload the page');
    expect(await pricing.getByRole('combobox', { name: 'Pickup address' }).inputValue()).not.toBe('');
    await pricing.close();

    // The quotation view's own files: the page says so under the site bar instead of going blank.
    const page = await suite.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const view = files('QuotationView').filter((f) => new URL(f).pathname.startsWith('/QuotationView.'));
    for (const f of view) await page.route(f, (route) => route.abort());
    await getPrices(page);
    const failure = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
    await failure.waitFor();
    expect(page.url()).toBe(`${server.url}/quotationview`);
    expect(await page.getByRole('banner').count()).toBe(1);
    for (const f of view) await page.unroute(f);
    await failure.getByRole('button', { name: 'Reload the page' }).click();
    // The prices were kept in the browser: the reloaded page shows them.
    await page.getByRole('button', { name: 'Book Now' }).first().waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fetches the first vehicle picture of the quotation at once (its largest paint), the others once it has painted, when scrolled to', async () => {
    const page = await suite.browser.newPage();
    // The first page opens without a scroll (a forced layout before its first paint); a later step starts at the top.
    await page.addInitScript(() => {
      const w = window as unknown as { scrolls: number };
      w.scrolls = 0;
      const real = window.scrollTo.bind(window) as (...a: unknown[]) => void;
      window.scrollTo = ((...args: unknown[]) => { w.scrolls++; real(...args); }) as typeof window.scrollTo;
    });
    const scrolls = () => page.evaluate(() => (window as unknown as { scrolls: number }).scrolls);
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await scrolls()).toBe(0);
    for (const [label, typed] of [['Pickup address', 'Paddington'], ['Drop-off address', 'Canary Wharf']]) {
      await page.getByRole('combobox', { name: label }).fill(typed);
      await page.getByRole('listbox').getByRole('option').first().click();
    }
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await expect.poll(scrolls).toBeGreaterThan(0);
    const pictures = page.locator('img.vehicle-img');
    await pictures.first().waitFor();
    const attrs = await pictures.evaluateAll((imgs) => imgs.map((i) => [i.getAttribute('loading'), i.getAttribute('fetchpriority')]));
    expect(attrs[0]).toEqual(['eager', 'high']);
    expect(attrs.length).toBeGreaterThan(1);
    for (const a of attrs.slice(1)) expect(a).toEqual(['lazy', 'auto']);

    // Opened again later (the prices are kept): the other pictures are asked for only once the page has painted.
    const again = await suite.browser.newContext({ storageState: await page.context().storageState() });
    const reopened = await again.newPage();
    await reopened.goto(`${server.url}/quotationview`);
    await reopened.getByRole('button', { name: 'Book Now' }).first().waitFor();
    await expect.poll(() => reopened.locator('.vehicle-img.pending').count()).toBe(0);
    // A picture's timing entry is written once it has arrived.
    const timing = () => reopened.evaluate(() => {
      const first = document.querySelector('img.vehicle-img')!.getAttribute('src')!;
      const others = performance.getEntriesByType('resource').filter((e) => e.name.includes('/storage/vehicles/') && !e.name.endsWith(first));
      return { painted: performance.getEntriesByName('first-contentful-paint')[0].startTime, others: others.map((e) => e.startTime) };
    });
    await expect.poll(async () => (await timing()).others.length).toBeGreaterThan(0);
    const { painted, others } = await timing();
    for (const asked of others) expect(asked).toBeGreaterThanOrEqual(painted);
    await again.close();
    await page.close();
  });
});
