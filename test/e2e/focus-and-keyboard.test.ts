// Issue 10, accessibility and polish: a booking made with the keyboard alone, where
// focus lands after each step, the page titles, modal dialogs (focus kept inside,
// handed back), fields that do not move under the pointer, the confirmation
// page on a phone with its calendar file, and no loading screen between steps.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { onSharedServer, ukDateInDays } from './harness';

const suite = onSharedServer();
const { server } = suite;
const COMPANY = 'Albion Executive Cars';

async function open(width: number, path = '/'): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(server.url + path);
  return page;
}

/** What a screen reader would call the focused element: its label, its aria-label, or its text. */
const focusedName = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return '(nothing)';
  const labelled = (el as HTMLInputElement).labels?.[0];
  const name = el.getAttribute('aria-label') ?? (labelled ? labelled.textContent : el.textContent) ?? '';
  return `${el.tagName.toLowerCase()}: ${name.replace(/\s+/g, ' ').replace(' *', '').trim()}`;
});

/** Tab (never the mouse) until the control named `name` has focus. */
async function tabTo(page: Page, name: string, tag?: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const [t, n] = (await focusedName(page)).split(': ');
    if (n?.startsWith(name) && (!tag || t === tag)) return;
  }
  throw new Error(`Tab never reached "${name}"; focus is on ${await focusedName(page)}`);
}

/** The page heading has focus (the step changed), and the title names the step. */
async function expectStep(page: Page, heading: string, title: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => focusedName(page)).toBe(`h1: ${heading}`);
  expect(await page.title()).toBe(`${title} | ${COMPANY}`);
}

/**
 * Types a date (yyyy-mm-dd) into the focused date input as a person does: its parts in the order the browser shows
 * them, which is the order of its own language (Chromium's comes from the machine's LANG: month/day/year for en-US,
 * day/month/year for en-GB, year first for ja or sv); a day or a month of two digits moves on by itself, a year
 * (up to six digits) with the right arrow. Then waits until the input holds the date.
 */
async function typeDate(page: Page, label: string, date: string) {
  const order = await page.evaluate(() => new Intl.DateTimeFormat(navigator.language.split('@')[0], { day: '2-digit', month: '2-digit', year: 'numeric' })
    .formatToParts(new Date(2000, 10, 30)).filter((p) => p.type !== 'literal').map((p) => p.type));
  const [year, month, day] = date.split('-');
  const parts: Record<string, string> = { year, month, day };
  for (const [i, part] of order.entries()) {
    await page.keyboard.type(parts[part]);
    if (part === 'year' && i < order.length - 1) await page.keyboard.press('ArrowRight');
  }
  await expect.poll(() => page.getByLabel(label).inputValue()).toBe(date);
}

async function chooseSuggestion(page: Page, text: string) {
  await page.keyboard.type(text);
  await page.getByRole('listbox').getByRole('option').first().waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

describe.each([375, 1280])('keyboard and focus at %i px', (width) => {
  it('books from the home page to the confirmation with the keyboard alone, focus on each new step\'s heading', async () => {
    const page = await open(width);
    // Everything that would cover the page from the moment it opens: the 'loading content' screen must never show.
    await page.evaluate(() => {
      const w = window as unknown as { sawLoading: string[] };
      w.sawLoading = [];
      new MutationObserver(() => {
        if (document.body.textContent?.includes('Please wait while loading content')) w.sawLoading.push(location.pathname);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await expect.poll(() => page.title()).toBe(`Book a taxi or chauffeur | ${COMPANY}`);
    await tabTo(page, 'Pickup address');
    await chooseSuggestion(page, 'Victoria');
    await tabTo(page, 'Drop-off address');
    await chooseSuggestion(page, 'Gatwick');
    // A pickup days ahead, typed: the time the form opens on is bookable only until the next five-minute mark
    // (decision 20), so a run that opened the page just before one met the urgent notice instead of the quotation
    // (decision 52). e2e/phones-and-times checks that an untouched form is priced, with the browser's clock set.
    await tabTo(page, 'Pickup date');
    await typeDate(page, 'Pickup date', ukDateInDays(3));
    await tabTo(page, 'Get prices', 'button');
    await page.keyboard.press('Enter');

    await expectStep(page, 'Top results', 'Choose a vehicle');
    await tabTo(page, 'Book Now');
    await page.keyboard.press('Enter');

    await expectStep(page, 'Personal details', 'Your details');
    // Next with nothing filled in: the alert takes focus and keeps it; closing it puts focus on the first field to fix.
    await tabTo(page, 'Next', 'button');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alertdialog', { name: 'Check your details' });
    await alert.waitFor();
    await expect.poll(() => focusedName(page)).toBe('button: OK');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null || document.activeElement === document.body)).toBe(true);
    expect(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal'))).toBe(true);
    await alert.getByRole('button', { name: 'OK' }).press('Enter');
    await expect.poll(() => focusedName(page)).toBe('input: First Name');
    await page.keyboard.type('Ada');
    await tabTo(page, 'Last Name');
    await page.keyboard.type('Byron');
    await tabTo(page, 'Email');
    await page.keyboard.type(`keyboard.${width}@example.com`);
    await tabTo(page, 'Phone Number');
    await page.keyboard.type('07700 900123');
    await tabTo(page, 'Next', 'button');
    await page.keyboard.press('Enter');

    await expectStep(page, 'Payment', 'Choose how to pay');
    await tabTo(page, 'Pay In Car', 'button');
    await page.keyboard.press('Enter');

    await expectStep(page, 'Thank You', 'Booking confirmed');
    expect(await page.evaluate(() => (window as unknown as { sawLoading: string[] }).sawLoading)).toEqual([]);
    await page.context().close();
  });

  it('hands focus back to the control that opened a dialog, and Escape closes it', async () => {
    const page = await open(width, '/contactus');
    await page.getByLabel('Email').fill(`focus.${width}@example.com`);
    await page.getByLabel('Your message').fill('Do you have a child seat for a two-year-old?');
    const send = page.getByRole('button', { name: /Send/ });
    await send.focus();
    await page.keyboard.press('Enter');
    const done = page.getByRole('alertdialog', { name: 'Form Submitted' });
    await done.waitFor();
    await expect.poll(() => focusedName(page)).toBe('button: OK');
    // The page behind is inert while the dialog is open.
    expect(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal'))).toBe(true);
    await page.keyboard.press('Escape');
    await done.waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toMatch(/^button: Send/);
    await page.context().close();
  });

  it('does not move a tick box or a field under the pointer when the one left shows its error', async () => {
    const page = await open(width);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Victoria');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Gatwick');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.getByRole('button', { name: 'Book Now' }).first().click();
    await page.getByRole('heading', { name: 'Personal details' }).waitFor();
    await page.getByText('New client').click();

    // Leaving an empty e-mail field for the phone field below it: the error appears, the press still lands.
    await page.getByLabel('Email').click();
    await page.getByLabel('Phone Number').click();
    await expect.poll(() => focusedName(page)).toBe('input: Phone Number');
    await page.locator('#email-error').waitFor();

    // The privacy tick box ticked and unticked, then the terms box pressed: both presses land.
    const privacy = page.getByRole('checkbox', { name: /Privacy Policy/ });
    const terms = page.getByRole('checkbox', { name: /Terms and Conditions/ });
    await privacy.click();
    await privacy.click();
    await terms.click();
    await expect.poll(() => terms.isChecked()).toBe(true);
    // The privacy error (shown once the box is left) is tied to its tick box, which is marked required.
    await expect.poll(() => privacy.getAttribute('aria-describedby')).toBeTruthy();
    const describedBy = await privacy.getAttribute('aria-describedby');
    expect(await page.locator(`#${describedBy}`).textContent()).toMatch(/Privacy/i);
    expect(await privacy.getAttribute('aria-required')).toBe('true');
    expect(await page.getByLabel('First Name').getAttribute('aria-required')).toBe('true');
    expect(await page.getByLabel('Additional information (optional)').getAttribute('aria-required')).toBeNull();
    // The policies open in a new tab, so the form stays as it is.
    const form = page.getByRole('form', { name: 'Personal details' });
    expect(await form.getByRole('link', { name: /Privacy Policy/ }).getAttribute('href')).toBe('/privacy-policy');
    expect(await form.getByRole('link', { name: /Terms and Conditions/ }).getAttribute('target')).toBe('_blank');
    await page.context().close();
  });

  it('fits the confirmation on the screen, gives the phone number and an Add to calendar file', async () => {
    const page = await open(width);
    await page.getByRole('combobox', { name: 'Pickup address' }).fill('Heathrow');
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Drop-off address' }).fill('Canary Wharf');
    await page.getByRole('listbox').getByRole('option').first().click();
    // Days ahead, not the form's earliest bookable time: a slow machine must not carry the pickup into the grace period.
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.getByRole('button', { name: 'Book Now' }).first().click();
    await page.getByLabel('First Name').fill('Maximilian-Alexander');
    await page.getByLabel('Last Name').fill('Featherstonehaugh-Worthington');
    await page.getByLabel('Email').fill(`a.very.long.address.for.a.narrow.screen.${width}@example-corporate-travel.co.uk`);
    await page.getByLabel('Phone Number').fill('07700 900123');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();

    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    const call = page.getByRole('main').getByRole('link', { name: '+44 20 7946 0321' });
    expect(await call.getAttribute('href')).toBe('tel:+442079460321');
    expect(await call.isVisible()).toBe(true);

    const reference = (await page.getByRole('row', { name: /Reference ID/ }).getByRole('cell').textContent())!.trim();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Add to calendar/ }).click()]);
    expect(download.suggestedFilename()).toBe(`booking-${reference}.ics`);
    const ics = readFileSync((await download.path())!, 'utf8');
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain(`UID:${reference}-pickup@taxi-booking`);
    expect(ics).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    expect(ics.replace(/\r\n /g, '')).toContain('LOCATION:Heathrow');
    await page.context().close();
  });
});

describe.each([375, 1280])('contrast of states (WCAG 1.4.3, 1.4.11) at %i px', (width) => {
  /** The contrast ratio of two CSS colours, computed in the page. */
  const ratio = (page: Page, a: string, b: string) => page.evaluate(([x, y]) => {
    const lum = (c: string) => {
      const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    };
    const [hi, lo] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05);
  }, [a, b] as const);
  const style = (page: Page, selector: string, prop: string) =>
    page.locator(selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

  it('keeps hovered buttons, the focus ring, field borders and the highlighted suggestion readable', async () => {
    const page = await open(width);
    const button = page.getByRole('button', { name: 'Get prices' });
    await button.hover();
    const [bg, fg] = await button.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(await ratio(page, fg, bg)).toBeGreaterThanOrEqual(4.5);

    const pickup = page.getByRole('combobox', { name: 'Pickup address' });
    expect(await ratio(page, await style(page, '#pickup', 'border-top-color'), 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
    await tabTo(page, 'Pickup address');
    expect(await pickup.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    const ring = await pickup.evaluate((el) => getComputedStyle(el).outlineColor);
    expect(await ratio(page, ring, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);

    await page.keyboard.type('London');
    await page.keyboard.press('ArrowDown');
    const active = page.locator('[role="option"][aria-selected="true"]');
    const [optionBg, optionFg] = await active.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(await ratio(page, optionBg, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
    expect(await ratio(page, optionFg, optionBg)).toBeGreaterThanOrEqual(4.5);

    // On the navy header the ring is gold, which stands out there.
    const headerControl = width <= 768 ? page.getByRole('banner').getByRole('button', { name: 'Menu' }) : page.getByRole('banner').getByRole('link', { name: 'Our Fleet' });
    await headerControl.focus();
    const headerRing = await headerControl.evaluate((el) => getComputedStyle(el).outlineColor);
    expect(await ratio(page, headerRing, await style(page, '.sitebar', 'background-color'))).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });
});
