// Issue 44's console pages in Chromium against the real server: the office adds a corporate account with a required
// PO number field and a booker (each form's rules said on its field before anything is sent, the server's refusal on
// its field), suspends it with the reason its bookers are shown; issues last month's invoices, downloads one and marks
// it paid (then unpaid again, as it was); and changes the charge of the demo's invoiced journey on account (less: a
// credit note; then back as it was: a debit note, so what the account owes is as it was). A company's
// staff see their own accounts only and are not offered the money. At 1280 and 375 px, with axe on every new screen.
// The booker is a passenger with a sign-in made as the website makes one (a booking as a new client).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_ACCOUNT } from '../../src/server/operator/seedCorporate';
import { monthLabel, previousMonth } from '../../src/domain/accounts';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN, METRO] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
const RUN = `${Date.now()}`.slice(-7);
const TODAY = ukDateInDays(0);
const LAST_MONTH = previousMonth(TODAY).start;

const api = async (at: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${at}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any, headers: res.headers };
};

/** A passenger with a sign-in, as the website makes one (a booking as a new client): their e-mail, password and name. */
async function newPassenger() {
  const who = { first: 'Imogen', last: `Hartley${RUN}`, email: `imogen.hartley.${RUN}@example.co.uk`, password: 'Hartley-Pass-2026' };
  const form = {
    pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Euston Station, Euston Road, London NW1 2RT',
    pickup_date: ukDateInDays(12), pickup_hour: '9am', pickup_min: '00', passengers: 1, luggages: 0,
  };
  const prices = await api('/calculate-distance-price', form);
  const made = await api('/booking', {
    selectedVehicleData: prices.body.price_details[0], bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'new_client',
    registrationData: { firstName: who.first, surname: who.last, number: '07700 900777', email: who.email, password: who.password, privacyAccepted: true, termsAccepted: true },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return who;
}

async function signedIn(who: { email: string; password: string }, width: number, path: string): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(`${shared.url}${path}`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}

/** The text of the message that describes an input (its error under it). */
async function describedBy(page: Page, label: string, form?: string) {
  const scope = form ? page.getByRole('form', { name: form }) : page;
  const ids = (await scope.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}
const status = (page: Page, text: string | RegExp) => page.getByRole('main').getByText(text).first().waitFor();

describe('corporate accounts in the console', () => {
  it('the office adds an account with a required PO number and a booker, and suspends it with the reason its bookers are shown', async () => {
    const booker = await newPassenger();
    const page = await signedIn(ADMIN, 1280, '/operator/accounts');
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    const list = page.getByRole('table', { name: 'Accounts' });
    await list.getByRole('link', { name: DEMO_ACCOUNT.name }).waitFor();
    expect(await page.getByRole('link', { name: 'Accounts', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await violations(page)).toEqual([]);

    // A new account: the form's rules say what is missing on each field, and nothing is sent.
    await page.getByRole('button', { name: 'New account' }).click();
    await page.getByRole('heading', { name: 'New account' }).waitFor();
    expect(new URL(page.url()).search).toBe('?new=1');
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByLabel('VAT number').fill('123');
    await form.getByRole('button', { name: 'Add account' }).click();
    await expect.poll(() => describedBy(page, 'Company name *')).toContain("Enter the company's name.");
    expect(await describedBy(page, 'Billing e-mail *')).toContain('Enter the e-mail address invoices are sent to.');
    expect(await describedBy(page, 'VAT number')).toContain('Enter a UK VAT number, e.g. GB 123 4567 89, or leave it empty.');
    expect(await describedBy(page, 'Credit limit (£) *')).toContain('Credit limit: an amount in pounds, like 5000 or 2500.50.');
    expect(new URL(page.url()).search).toBe('?new=1');
    expect(await violations(page)).toEqual([]);
    const name = `Harbour Analytics ${RUN}`;
    await form.getByLabel('Company name').fill(name);
    await form.getByLabel('Billing e-mail').fill(`accounts.${RUN}@harbour-analytics.example`);
    await form.getByLabel('Address').fill('12 Quay Street, Bristol BS1 4DJ');
    await form.getByLabel('VAT number').fill('GB123456789');
    await form.getByLabel('Credit limit (£)').fill('2500');
    await form.getByRole('button', { name: 'Add account' }).click();
    await page.getByRole('heading', { name, exact: true }).waitFor();
    await status(page, `${name} saved.`);
    expect(new URL(page.url()).search).toMatch(/^\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    expect(await page.getByLabel('VAT number').inputValue()).toBe('GB 123 4567 89');

    // Its booking fields: a required PO number (free text) and a cost centre from a list.
    const field = page.getByRole('form', { name: 'Add a field' });
    await field.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => describedBy(page, 'Name *', 'Add a field')).toContain("Enter the field's name, e.g. PO number.");
    await field.getByLabel('Name').fill('PO number');
    await field.getByLabel('Required on every booking').check();
    await field.getByRole('button', { name: 'Add field' }).click();
    await status(page, `PO number saved for ${name}.`);
    await page.getByRole('form', { name: 'Add a field' }).getByLabel('Name').fill('Cost centre');
    await page.getByRole('form', { name: 'Add a field' }).getByLabel('Values allowed').fill('Sales\nOperations\n');
    await page.getByRole('form', { name: 'Add a field' }).getByRole('button', { name: 'Add field' }).click();
    await status(page, `Cost centre saved for ${name}.`);
    const fields = page.getByRole('region', { name: 'Booking fields' });
    await expect.poll(() => fields.innerText()).toMatch(/PO number Required\s+Free text[\s\S]*Cost centre Optional\s+One of: Sales, Operations/);

    // Its booker: an address nobody signs in with is refused on the field (the server's words); theirs is added.
    const bookers = page.getByRole('form', { name: 'Add a booker' });
    await bookers.getByLabel("Booker's e-mail").fill(`nobody.${RUN}@example.co.uk`);
    await bookers.getByRole('button', { name: 'Add booker' }).click();
    await expect.poll(() => describedBy(page, "Booker's e-mail *")).toContain('Nobody has a sign-in with this e-mail.');
    expect(await bookers.getByLabel("Booker's e-mail").inputValue()).toBe(`nobody.${RUN}@example.co.uk`);
    await bookers.getByLabel("Booker's e-mail").fill(booker.email);
    await bookers.getByRole('button', { name: 'Add booker' }).click();
    await status(page, `${booker.first} ${booker.last} now books for ${name}.`);
    await page.getByRole('button', { name: `Remove ${booker.first} ${booker.last}` }).waitFor();
    expect(await violations(page)).toEqual([]);

    // The booker's payment step is told the account and its fields.
    const login = await api('/check-passenger-login', { email: booker.email, password: booker.password });
    const billing = await api('/account/billing', undefined, { Authorization: `Bearer ${login.body.access_token}` });
    expect(billing.body.account).toMatchObject({ name, status: 'active', fields: [{ label: 'PO number', required: true, options: [] }, { label: 'Cost centre', required: false, options: ['Sales', 'Operations'] }] });

    // Suspended: without a reason the form says so; with one, the bookers are shown it.
    const details = page.getByRole('form', { name: 'The account' });
    await details.getByLabel('Status').selectOption({ label: 'Suspended' });
    await details.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => describedBy(page, 'Reason the bookers are shown *')).toContain('Say why, in words the account');
    await details.getByLabel('Reason the bookers are shown').fill('Invoice INV-000123 is overdue');
    await details.getByRole('button', { name: 'Save changes' }).click();
    await status(page, `${name} saved.`);
    const after = await api('/account/billing', undefined, { Authorization: `Bearer ${login.body.access_token}` });
    expect(after.body.account).toMatchObject({ status: 'suspended', reason: 'Invoice INV-000123 is overdue' });

    // Back on the list: its status and why, its limit, its bookers.
    await page.getByRole('button', { name: '← Accounts' }).click();
    const row = page.getByRole('table', { name: 'Accounts' }).getByRole('row').filter({ hasText: name });
    await expect.poll(() => row.innerText()).toMatch(/Suspended\s+Invoice INV-000123 is overdue[\s\S]*£2500\.00[\s\S]*£0\.00[\s\S]*30 days\s+1/);
    expect(new URL(page.url()).search).toBe('');
    // The account's invoices are a link away.
    await row.getByRole('link', { name }).click();
    await page.getByRole('link', { name: 'Invoices of this account' }).click();
    await page.getByRole('heading', { name: `Invoices of ${name}` }).waitFor();
    expect(new URL(page.url()).search).toBe(`?account=${id}`);
    await page.getByText('No invoices here yet.').waitFor();
    await page.context().close();
  });

  it("issues last month's invoices, downloads one, and marks it paid with the day (then unpaid, as it was)", async () => {
    const page = await signedIn(ADMIN, 1280, '/operator/invoices');
    await page.getByRole('heading', { name: 'Invoices', exact: true }).waitFor();
    const issue = page.getByRole('form', { name: 'Issue invoices now' });
    expect(await issue.getByLabel('Month').inputValue()).toBe(LAST_MONTH.slice(0, 7));
    // This month is not over: the form says so, and nothing is issued.
    await issue.getByLabel('Month').fill(TODAY.slice(0, 7));
    await issue.getByRole('button', { name: 'Issue invoices' }).click();
    await expect.poll(() => describedBy(page, 'Month *')).toContain('A month is invoiced once it is over: choose an earlier month.');
    // Last month, every account: the demo's journey on account is invoiced (by this, or already by the server's timer).
    await issue.getByLabel('Month').fill(LAST_MONTH.slice(0, 7));
    await issue.getByRole('button', { name: 'Issue invoices' }).click();
    await status(page, /^(\d+ invoice\(s\) issued and e-mailed\.|Nothing to invoice: every finished journey of that month is invoiced already\.)$/);
    const month = monthLabel(LAST_MONTH);
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: DEMO_ACCOUNT.name }).filter({ hasText: month });
    // The server's timer issues the demo's invoice a few seconds after it starts: shown once it is there.
    await expect.poll(async () => {
      if (await row.count()) return true;
      await page.getByRole('form', { name: 'Invoices to show' }).getByRole('button', { name: 'Show' }).click();
      return false;
    }).toBe(true);
    const label = /INV-\d{6}/.exec(await row.innerText())![0];
    expect(await violations(page)).toEqual([]);

    // Its PDF, as the server names it.
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download ${label} (PDF)` }).click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${label}.pdf`);
    expect(readFileSync((await download.path())!).subarray(0, 5).toString()).toBe('%PDF-');
    await status(page, `${label} has been downloaded.`);

    // Marked unpaid first if another test left it paid, so that it is marked paid here.
    if (await row.getByRole('button', { name: `Mark ${label} unpaid` }).count()) {
      await row.getByRole('button', { name: `Mark ${label} unpaid` }).click();
      await status(page, `${label} marked unpaid.`);
    }
    await row.getByRole('button', { name: `Mark ${label} paid` }).click();
    const dialog = page.getByRole('dialog', { name: `Mark ${label} paid` });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Paid on').inputValue()).toBe(TODAY);
    await dialog.getByLabel('Paid on').fill(ukDateInDays(1));
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await expect.poll(() => describedBy(page, 'Paid on *')).toContain('The day it was paid cannot be in the future.');
    expect(await violations(page)).toEqual([]);
    await dialog.getByLabel('Paid on').fill(TODAY);
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await status(page, `${label} marked paid on ${TODAY}.`);
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.innerText()).toMatch(new RegExp(`Paid\\s+on .*, by ${ADMIN.name}`));
    await row.getByRole('button', { name: `Mark ${label} unpaid` }).click();
    await status(page, `${label} marked unpaid.`);
    await expect.poll(() => row.innerText()).toMatch(/\b(Due|Overdue)\b/);

    // One account's invoices: the address says which.
    await page.getByRole('form', { name: 'Invoices to show' }).getByLabel('Account').selectOption({ label: DEMO_ACCOUNT.name });
    await page.getByRole('form', { name: 'Invoices to show' }).getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: `Invoices of ${DEMO_ACCOUNT.name}` }).waitFor();
    expect(new URL(page.url()).search).toMatch(/^\?account=\d+$/);
    await page.context().close();
  });

  it("changes the charge of the demo's invoiced journey on account: a credit note, then a debit note putting it back, each on the invoice's page", async () => {
    const session = await api('/operator/session', ADMIN);
    const cookie = { Cookie: session.headers.get('set-cookie')!.split(';')[0] };
    const past = await api('/operator/bookings?tab=past', undefined, cookie);
    const journey = past.body.rows.find((r: any) => r.payment_method === 'account' && r.status === 'completed');
    expect(journey, 'the demo has a completed journey on account').toBeTruthy();
    // Its month is invoiced (by the server's timer a few seconds after it starts, or by the test before).
    await expect.poll(async () => (await api('/operator/invoices', undefined, cookie)).body.invoices.some((i: any) => i.period_start === LAST_MONTH)).toBe(true);
    const page = await signedIn(ADMIN, 1280, `/operator/bookings/${journey.booking_number}`);
    await page.getByRole('heading', { name: `Booking ${journey.booking_number}` }).waitFor();
    const payment = page.getByRole('region', { name: 'Payment', exact: true });
    await expect.poll(() => payment.innerText()).toMatch(new RegExp(`On account[\\s\\S]*${DEMO_ACCOUNT.name}`));
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Change charge' }).click();
    const dialog = page.getByRole('dialog', { name: `Change the charge of ${journey.booking_number}` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Change charge' }).click();
    await expect.poll(() => describedBy(page, 'New charge (£) *')).toContain('The new charge: an amount in pounds, like 84.50 (0 to waive it).');
    expect(await describedBy(page, 'Reason *')).toContain('Say why the charge changes');
    expect(await violations(page)).toEqual([]);
    // What it is charged already: the server refuses it on the field, and nothing is written.
    await dialog.getByLabel('New charge (£)').fill(journey.total);
    await dialog.getByLabel('Reason').fill('Checking the charge');
    await dialog.getByRole('button', { name: 'Change charge' }).click();
    await expect.poll(() => describedBy(page, 'New charge (£) *')).toContain('This is what the journey is charged already.');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Less: a credit note, its number said; then back as it was: a debit note. The issued invoice never changes.
    const change = async (amount: string, reason: string) => {
      await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Change charge' }).click();
      await dialog.getByLabel('New charge (£)').fill(amount);
      await dialog.getByLabel('Reason').fill(reason);
      await dialog.getByRole('button', { name: 'Change charge' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const said = page.getByText(/^Charge changed: (credit|debit) note (CN|DN)-\d{6} issued on the account's invoice\.$/);
      await said.waitFor();
      return /(CN|DN)-\d{6}/.exec((await said.textContent())!)![0];
    };
    const lower = (Number(journey.total) - 5).toFixed(2);
    const credit = await change(lower, 'Waiting time taken off, as agreed with the client');
    expect(credit).toMatch(/^CN-/);
    await expect.poll(() => page.getByRole('region', { name: 'Price' }).innerText()).toContain(`£${lower}`);
    const debit = await change(journey.total, 'Charged as quoted after all');
    expect(debit).toMatch(/^DN-/);
    // The invoice's page lists both notes against it, each downloadable.
    await page.goto(`${shared.url}/operator/invoices`);
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: DEMO_ACCOUNT.name }).filter({ hasText: monthLabel(LAST_MONTH) });
    await expect.poll(() => row.innerText()).toMatch(new RegExp(`${credit} credit £5\\.00, ${journey.booking_number}, carried onto the next invoice[\\s\\S]*${debit} debit £5\\.00`));
    const [note] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download ${credit} (PDF)` }).click()]);
    expect(note.suggestedFilename()).toBe(`credit-note-${credit}.pdf`);
    await page.goto(`${shared.url}/operator/bookings/${journey.booking_number}`);
    await page.getByRole('heading', { name: `Booking ${journey.booking_number}` }).waitFor();
    // The account is a link away.
    await payment.getByRole('link', { name: DEMO_ACCOUNT.name }).click();
    await page.getByRole('heading', { name: DEMO_ACCOUNT.name, exact: true }).waitFor();
    await page.context().close();
  });

  it("fits a phone; a company's staff see their own accounts only and are not offered the money", async () => {
    const phone = await signedIn(ADMIN, 375, '/operator/accounts');
    await phone.getByRole('link', { name: DEMO_ACCOUNT.name }).click();
    await phone.getByRole('heading', { name: DEMO_ACCOUNT.name, exact: true }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await violations(phone)).toEqual([]);
    await phone.getByRole('link', { name: 'Invoices of this account' }).click();
    await phone.getByRole('heading', { name: `Invoices of ${DEMO_ACCOUNT.name}` }).waitFor();
    await phone.getByRole('form', { name: 'Issue invoices now' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await violations(phone)).toEqual([]);
    await phone.context().close();

    const metro = await signedIn(METRO, 1280, '/operator/accounts');
    await metro.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    await metro.getByText(/No accounts yet\.|Owed and booked/).first().waitFor();
    expect(await metro.getByRole('link', { name: DEMO_ACCOUNT.name }).count()).toBe(0);
    await metro.getByRole('button', { name: 'New account' }).click();
    await metro.getByRole('heading', { name: 'New account' }).waitFor();
    expect(await metro.getByLabel('Company that looks after it').count()).toBe(0);
    await metro.goto(`${shared.url}/operator/invoices`);
    await metro.getByRole('heading', { name: 'Invoices', exact: true }).waitFor();
    await metro.getByText(/No invoices here yet\.|\d+ invoices?/).first().waitFor();
    expect(await metro.getByRole('form', { name: 'Issue invoices now' }).count()).toBe(0);
    expect(await metro.getByRole('button', { name: /^Mark .* paid$/ }).count()).toBe(0);
    await metro.context().close();
  });
});
