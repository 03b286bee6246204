// Every screen of the wizard passes axe's WCAG 2.2 AA checks, at phone and desktop widths.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';

const suite = onSharedServer();
const { server } = suite;


describe.each([375, 1280])('accessibility at %i px', (width) => {
  it('finds no WCAG 2.2 AA violations from the home page to the confirmation', async () => {
    const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await page.goto(server.url);
    await page.getByRole('tablist').waitFor();
    expect(await violations(page), 'home').toEqual([]);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Victoria');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Gatwick');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByLabel('Pickup date').fill(ukDateInDays(5));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.locator('.vehicle-card').first().waitFor();
    expect(await violations(page), 'quotation').toEqual([]);
    await page.getByRole('button', { name: 'Book Now' }).first().click();
    await page.waitForURL('**/personalDetailView');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alertdialog').getByRole('button').click();
    expect(await violations(page), 'details with errors').toEqual([]);
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Byron');
    await page.getByLabel('Email').fill(`ada${width}@example.com`);
    await page.getByLabel('Phone Number').fill('07700 900123');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await violations(page), 'payment').toEqual([]);
    // SPEC 2's /checkout: the payment step's review, opened by its address with the booking in progress.
    await page.goto(`${server.url}/checkout`);
    await page.getByRole('heading', { name: 'Review your booking' }).waitFor();
    expect(await violations(page), 'checkout').toEqual([]);
    await page.goto(`${server.url}/paymentview`);
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    expect(await violations(page), 'confirmation').toEqual([]);
    await page.goto(`${server.url}/quoteView`);
    await page.getByRole('heading', { name: 'Quote Now' }).waitFor();
    expect(await violations(page), 'quote').toEqual([]);
    await page.goto(`${server.url}/forgot_password`);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await violations(page), 'forgot password').toEqual([]);
  });
});
