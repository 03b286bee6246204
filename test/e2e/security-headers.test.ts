// The security headers in Chromium against the real server: the site runs
// under its Content-Security-Policy with no violation from the home page to the
// quotation step, the policy is enforced, Google Maps is allowed only while
// GOOGLE_API_KEY is set, and no source map is served.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';

const suite = onSharedServer();
const { server, setting } = suite;

/** A fresh page that records every CSP violation, and every console message about the policies. */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  await context.exposeBinding('__reportViolation', (_source, text: string) => { problems.push(text); });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportViolation(t: string): void })
        .__reportViolation(`${e.effectiveDirective} refused ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/content security policy|permissions-policy|refused to/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  return { page, problems };
}

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
  expect(headers['content-security-policy'], what).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy'], what).toMatch(/(^|, )geolocation=\(self\)(,|$)/);
}

const headersOf = (res: Response) => Object.fromEntries(res.headers);

describe('security headers in the browser', () => {
  it('walks from the home page to the quotation step under the policy with no violation', async () => {
    const { page, problems } = await watchedPage();
    const res = await page.goto(server.url);
    const headers = await res!.allHeaders();
    expectSecurityHeaders(headers, 'home page');
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(headers['content-security-policy']).not.toMatch(/google|stripe/);
    // The inline run-time config ran (its nonce matched).
    expect(await page.evaluate(() => typeof (window as unknown as { __APP_CONFIG__?: object }).__APP_CONFIG__)).toBe('object');

    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.locator('.vehicle-card').first().waitFor();
    expect(problems).toEqual([]);

    // And the policy is enforced: an injected inline script or an outside script is refused and reported.
    await page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__injected = true';
      document.head.appendChild(inline);
      const outside = document.createElement('script');
      outside.src = 'https://maps.googleapis.com/maps/api/js?key=x';
      document.head.appendChild(outside);
    });
    await expect.poll(() => problems.filter((p) => p.startsWith('script-src')).length, { timeout: 15_000 }).toBe(2);
    expect(problems.join('\n')).toContain('https://maps.googleapis.com/maps/api/js');
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await page.context().close();
  });

  it('sends them with assets, images and API answers, and serves the build without source maps', async () => {
    const html = await (await fetch(server.url)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc=["']?([^"'\s>]+)/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link\b[^>]*\bhref=["']?([^"'\s>]+\.css)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const asset of [...scripts, ...styles]) {
      const res = await fetch(server.url + asset);
      expect(res.status, asset).toBe(200);
      expectSecurityHeaders(headersOf(res), asset);
      expect(await res.text(), asset).not.toContain('sourceMappingURL');
      const map = await fetch(`${server.url}${asset}.map`);
      expect(map.status, `${asset}.map`).toBe(404);
      await map.arrayBuffer();
    }
    for (const [what, url, status] of [
      ['vehicle image', '/storage/vehicles/saloon.svg', 200],
      ['API call without keys', '/api/v1/setting', 401],
      ['missing asset', '/nothing.1234.js', 404],
    ] as const) {
      const res = await fetch(server.url + url);
      expect(res.status, what).toBe(status);
      expectSecurityHeaders(headersOf(res), what);
      await res.arrayBuffer();
    }
  });

  it('lets Google Maps load, add its styles under the page nonce and show its images only while GOOGLE_API_KEY is set', async () => {
    await setting('GOOGLE_API_KEY', 'test-maps-key');
    const { page, problems } = await watchedPage();
    const images: string[] = [];
    // What the Maps JS API does that a policy must allow: a <style> carrying the nonce of the
    // page's first script (Google's CSP guide), and images from gstatic. No places library:
    // the app then goes on with its own address list.
    await page.route('https://maps.googleapis.com/**', (r) => r.fulfill({
      contentType: 'text/javascript',
      body: `
        const style = document.createElement('style');
        style.nonce = document.querySelector('script[nonce]').nonce;
        style.textContent = '.gm-style { color: rgb(1, 2, 3) }';
        document.head.appendChild(style);
        const img = new Image();
        img.src = 'https://maps.gstatic.com/mapfiles/stub.png';
        document.body.appendChild(img);
        window.__mapsStubRan = true;
        window.__bookingMapsReady();`,
    }));
    await page.route('https://maps.gstatic.com/**', (r) => { images.push(r.request().url()); return r.fulfill({ contentType: 'image/png', body: Buffer.alloc(0) }); });
    const res = await page.goto(server.url);
    expect((await res!.allHeaders())['content-security-policy']).toContain('https://maps.googleapis.com');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __mapsStubRan?: boolean }).__mapsStubRan), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => images.length, { timeout: 15_000 }).toBe(1);
    const styled = await page.evaluate(() => {
      const el = document.createElement('div');
      el.className = 'gm-style';
      document.body.appendChild(el);
      return getComputedStyle(el).color;
    });
    expect(styled).toBe('rgb(1, 2, 3)');
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
