// The site around the wizard (issue 10; SPEC 1, 2 'Layout', /contactus, /ourfleet, /checkout, SPEC 8 'Contact'):
// the header menu and its side menu on a phone, the footer, the contact form, the fleet and the text pages.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer } from './harness';
import { violations } from './axe';
import { outboxMails } from './outbox';

const suite = onSharedServer();
const { server, setting } = suite;

async function open(path = '/', width = 1280): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(server.url + path);
  return page;
}


const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

describe('header menu', () => {
  it('shows Urgent Booking, Our Fleet, Contact Us and Corporate Account on a desktop, each behind its setting', async () => {
    let page = await open();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.waitFor();
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Urgent Booking', 'Our Fleet', 'Contact Us', 'Corporate Account']);
    expect(await page.getByRole('banner').getByRole('link', { name: '+44 20 7946 0321' }).getAttribute('href')).toBe('tel:+442079460321');
    await menu.getByRole('link', { name: 'Our Fleet' }).click();
    await page.waitForURL('**/ourfleet');
    await page.getByRole('heading', { name: 'Our Fleet', level: 1 }).waitFor();

    await setting('NAVBAR_URGENT_BOOKING_PAGE', 'disable');
    await setting('NAVBAR_OUR_FLEET_PAGE', 'disable');
    await setting('CORPORATE_LOGIN', 'disable');
    page = await open();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // Contact Us is always there (SPEC 2).
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Contact Us']);
  });

  it('opens a side menu from the hamburger on a phone: focus moves in, Escape closes it and focus returns, a link closes it', async () => {
    const page = await open('/', 375);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedText(page)).toBe('Urgent Booking');
    expect(await violations(page), 'side menu open').toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe('dialog');

    await toggle.click();
    await dialog.getByRole('link', { name: 'Contact Us' }).click();
    await page.waitForURL('**/contactus');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    // No horizontal scroll on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it('is hidden when SHOW_NAVBAR_PAGE is not enable, and the footer when SHOW_FOOTER_PAGE is not', async () => {
    await setting('SHOW_NAVBAR_PAGE', 'disable');
    await setting('SHOW_FOOTER_PAGE', 'disable');
    const page = await open('/contactus');
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    expect([await page.getByRole('banner').count(), await page.getByRole('contentinfo').count()]).toEqual([0, 0]);
  });
});

describe('footer', () => {
  it('has a description, the operators, how to reach the company, the legal pages and the 2024 copyright line', async () => {
    const page = await open();
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('heading', { name: 'Operators' }).waitFor();
    const operators = await footer.getByRole('region', { name: 'Operators' }).getByRole('listitem').allTextContents();
    expect(operators).toEqual(expect.arrayContaining(['Albion Executive Cars', 'Metro Cars London', 'Thames Valley Chauffeurs']));
    const text = await footer.textContent();
    expect(text).toContain('bookings@albion-executive.co.uk');
    expect(text).toContain('27 Old Gloucester Street, London WC1N 3AX');
    expect(text).toContain('© 2024 Albion Executive Cars');
    for (const [link, heading, sentence] of [
      ['Terms and Conditions', 'Terms and Conditions', 'cancelled at least 24 hours before pickup'],
      ['Privacy Policy', 'Privacy Policy', 'This website uses no cookies and no tracking or advertising tools.'],
      ['Accessibility', 'Accessibility statement', 'WCAG) 2.2 at level AA'],
    ]) {
      await page.getByRole('contentinfo').getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByText(sentence, { exact: false }).first().waitFor();
    }
    expect(new URL(page.url()).pathname).toBe('/accessibility');
  });
});

describe('pages', () => {
  it('sends the contact form, says so, and starts a new empty form; a refused message says why and keeps what was typed', async () => {
    const page = await open('/contactus');
    const form = page.getByRole('form', { name: 'Contact Us' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await form.getByText('Please give an e-mail address or a telephone number so we can reply.').waitFor();
    expect(await form.getByLabel('Reason for your query').inputValue()).toBe('Booking');
    await form.getByLabel('First name').fill('Amelia');
    await form.getByLabel('Last name').fill('Hart');
    await form.getByLabel('Email').fill('amelia.contact@example.com');
    await form.getByLabel('Reason for your query').selectOption('Lost Item');
    await form.getByLabel('Your message').fill('I left a black umbrella on the back seat.');
    await form.getByRole('button', { name: 'Send message' }).click();
    const done = page.getByRole('alertdialog', { name: 'Form Submitted' });
    await done.waitFor();
    expect(await done.textContent()).toContain('Your form has been submitted successfully!. Thank You for Contacting');
    await done.getByRole('button').click();
    expect(await form.getByLabel('Email').inputValue()).toBe('');
    await expect.poll(() => outboxMails(server.dataDir).some((m) => m.texts.some((t) => t.includes('black umbrella')))).toBe(true);

    // The server's own limits: its answer is shown as it is.
    await form.getByLabel('Email').fill('amelia.contact@example.com');
    await form.getByLabel('Your message').fill('x'.repeat(5001));
    await form.getByRole('button', { name: 'Send message' }).click();
    const refused = page.getByRole('alertdialog', { name: 'Submission Failed' });
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/comments/);
    await refused.getByRole('button').click();
    expect(await form.getByLabel('Email').inputValue()).toBe('amelia.contact@example.com');
  });

  it('has a honeypot no person meets (off screen, out of the tab order and the accessibility tree); a program that fills it is thanked and not sent', async () => {
    const page = await open('/contactus');
    const form = page.getByRole('form', { name: 'Contact Us' });
    await form.getByLabel('Your message').waitFor();
    expect(await form.getByRole('textbox', { name: 'Leave this field empty' }).count()).toBe(0);
    const trap = page.locator('#website');
    const box = await trap.boundingBox();
    expect(box === null || box.x + box.width <= 0).toBe(true);
    await form.getByLabel('Your message').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send message');

    await form.getByLabel('Last name').fill('Honeypot-Robot');
    await form.getByLabel('Email').fill('robot@example.com');
    await form.getByLabel('Your message').fill('Cheap watches');
    await trap.fill('http://spam.example', { force: true });
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('alertdialog', { name: 'Form Submitted' }).waitFor();
    // A message is written to the mail queue before the answer: this one never was.
    expect(await server.admin('emails')).not.toContain('Honeypot-Robot');
    const quote = await open('/quoteView');
    // The quote form is a view of its own: on screen first, then what it has and has not is a fact (issue 28).
    await quote.getByRole('form', { name: 'Quote Now' }).waitFor();
    expect(await quote.getByRole('form', { name: 'Quote Now' }).getByRole('textbox', { name: 'Leave this field empty' }).count()).toBe(0);
    expect(await quote.locator('#website').count()).toBe(1);
  });

  it('lists every vehicle type on /ourfleet with its picture, passengers and suitcases', async () => {
    const page = await open('/ourfleet');
    const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });
    await cards.first().waitFor();
    expect(await cards.count()).toBe(6);
    const saloon = cards.filter({ has: page.getByRole('heading', { name: 'Saloon', exact: true }) });
    expect((await saloon.textContent())!.replace(/\s+/g, ' ')).toContain('Passengers4Large suitcases2Medium suitcases2');
    expect(await saloon.locator('img').getAttribute('src')).toMatch(/saloon\.svg$/);
  });

  it('sends /checkout without a booking in progress back to the start, as the payment step would (SPEC 2)', async () => {
    const page = await open('/checkout');
    await page.waitForURL((u) => u.pathname === '/home');
  });

  it.each([375, 1280])('passes axe on the new pages at %i px', async (width) => {
    for (const [path, heading] of [['/contactus', 'Contact Us'], ['/ourfleet', 'Our Fleet'], ['/terms-and-conditions', 'Terms and Conditions'],
      ['/privacy-policy', 'Privacy Policy'], ['/accessibility', 'Accessibility statement']]) {
      const page = await open(path, width);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByRole('contentinfo').getByRole('heading', { name: 'Operators' }).waitFor();
      expect(await violations(page), path).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(width);
      await page.context().close();
    }
  });
});
