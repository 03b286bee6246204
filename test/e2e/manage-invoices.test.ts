// Issue 39 item 4 (decision 48) in Chromium, as a passenger of an operator with a VAT number finds it: a card
// booking's page offers its VAT invoice; once issued, the page lists it, and after a cancellation with a full refund
// its credit note too, each with its number, date and amount, and each downloads as a PDF of its own, named after it.
// Once listed, the list is the one way to download them; a download by keyboard keeps the focus and says it is done.
import { describe, expect, it } from 'vitest';
import type { Download } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { outboxMails } from './outbox';

const suite = onSharedServer();
const shared = suite.server;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

const api = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${path}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any };
};

/** A booking paid by card through the local test gateway, made as the website makes it; its confirmation's link. */
async function paidBooking() {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: ukDateInDays(21), pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Metro Cars London');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Eleanor', surname: 'Whitfield', number: '07700 900321', email: `invoiced.${Date.now()}@example.com`, additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const { publishableKey } = (await api('/secret_key')).body;
  const pm = await (await fetch(`${shared.url}/test-gateway/v1/payment_methods`, {
    method: 'POST', headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json() as { id: string };
  const key = { 'Idempotency-Key': `invoice-e2e-${Date.now()}` };
  const created = await api('/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, key);
  const confirmed = await api('/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await api('/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, key);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const reference = done.body.data.booking.booking_number as string;
  const subject = `Booking confirmed: ${reference}`;
  await expect.poll(() => outboxMails(shared.dataDir).some((m) => m.headers.subject === subject), { timeout: 15_000 }).toBe(true);
  const text = outboxMails(shared.dataDir).find((m) => m.headers.subject === subject)!.texts.join('\n');
  const link = /(https?:\/\/\S+\/manage\/BK-[A-Z0-9]{8}#key=[\w-]{43})/.exec(text)![1];
  return { reference, total: done.body.data.booking.total_booking_amount as string, url: shared.url + link.slice(link.indexOf('/manage/')) };
}

async function bytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await download.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('the VAT invoice and its notes on the booking page', () => {
  it('lists the invoice once issued and its credit note after a refunded cancellation, each downloaded as its own PDF', async () => {
    await shared.admin('set-setting', 'VAT_NUMBER', 'GB 123 4567 89');
    try {
      const b = await paidBooking();
      const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
      await page.goto(b.url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // Paid: the download is its VAT invoice, issued now; nothing is listed before.
      expect(await page.getByRole('heading', { name: /Your VAT invoice/ }).count()).toBe(0);
      const [first] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download VAT invoice (PDF)' }).click()]);
      expect((await bytes(first)).subarray(0, 5).toString()).toBe('%PDF-');
      const issued = /^invoice-(INV-\d{6})\.pdf$/.exec(first.suggestedFilename());
      expect(issued, first.suggestedFilename()).not.toBeNull();
      await page.getByRole('status').filter({ hasText: 'Your receipt has been downloaded.' }).waitFor();

      // Cancelled with a full refund: the invoice is listed, and is downloaded from the list only (the button above is
      // gone); that download issues its credit note. By keyboard: the button keeps the focus while the file is prepared.
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await page.getByRole('dialog', { name: 'Cancel this booking?' }).getByRole('button', { name: 'Yes, cancel my booking' }).click();
      await page.getByRole('heading', { name: 'Your booking is cancelled' }).waitFor();
      const ISSUED = '\\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \\d{4}';
      const invoice = page.getByRole('listitem').filter({ hasText: new RegExp(`^VAT invoice INV-\\d{6}, issued ${ISSUED}: £`) });
      await invoice.waitFor();
      const number = /INV-\d{6}/.exec(await invoice.innerText())![0];
      expect(number).toBe(issued![1]);
      expect(await invoice.innerText()).toContain(`£${b.total}`);
      expect(await page.getByRole('button', { name: 'Download VAT invoice (PDF)' }).count()).toBe(0);
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      const aDocument = (url: URL) => url.pathname.endsWith('/receipt') && url.searchParams.has('document');
      await page.route(aDocument, async (route) => { await held; await route.continue(); });
      const button = invoice.getByRole('button', { name: `Download ${number} (PDF)` });
      const handle = await button.elementHandle();
      await button.focus();
      const downloaded = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      await invoice.getByRole('button', { name: `Preparing ${number}...` }).waitFor();
      expect(await handle!.getAttribute('aria-disabled')).toBe('true');
      expect(await handle!.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter'); // ignored while the file is prepared
      release();
      const viaList = await downloaded;
      expect(viaList.suggestedFilename()).toBe(`invoice-${number}.pdf`);
      await page.getByRole('status').filter({ hasText: `${number} has been downloaded.` }).waitFor();
      expect(await handle!.evaluate((el) => el === document.activeElement && !el.hasAttribute('aria-disabled'))).toBe(true);
      await page.unroute(aDocument);
      await page.reload();
      const credit = page.getByRole('listitem').filter({ hasText: new RegExp(`^Credit note CN-\\d{6}, issued ${ISSUED}: -£`) });
      await credit.waitFor();
      expect(await credit.innerText()).toContain(`-£${b.total}`);
      const note = /CN-\d{6}/.exec(await credit.innerText())![0];
      expect(await violations(page), 'the invoice and its note listed').toEqual([]);

      const [download] = await Promise.all([page.waitForEvent('download'), credit.getByRole('button', { name: `Download ${note} (PDF)` }).click()]);
      expect(download.suggestedFilename()).toBe(`credit-note-${note}.pdf`);
      expect((await bytes(download)).subarray(0, 5).toString()).toBe('%PDF-');
      const [again] = await Promise.all([page.waitForEvent('download'), invoice.getByRole('button', { name: `Download ${number} (PDF)` }).click()]);
      expect(again.suggestedFilename()).toBe(`invoice-${number}.pdf`);

      // On a phone the date stays on one line, and the list reads as well.
      await page.setViewportSize({ width: 375, height: 812 });
      for (const item of [invoice, credit]) {
        const date = item.getByText(new RegExp(`^issued ${ISSUED}$`));
        expect(await date.evaluate((el) => el.getClientRects().length)).toBe(1);
      }
      expect(await violations(page), 'the invoice and its note at 375 px').toEqual([]);
      await page.context().close();
    } finally {
      await shared.admin('set-setting', 'VAT_NUMBER', '');
    }
  });
});
