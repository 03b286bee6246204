// Issue 10 (decision 20) in Chromium against the real server, as a person sees
// it at 375 and 1280 px: UK phone numbers accepted, stored as E.164 and shown
// formatted; both home forms opening on the earliest bookable pickup; hours
// nobody misreads; a return leg that starts as a copy of the outbound one; and
// SPEC 5's password alert for both kinds of client. The browser's clock is set
// where a test needs a known time; the server keeps its own.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { outboxMails } from './outbox';

const suite = onSharedServer();
const { server, setting } = suite;
const WIDTHS = [375, 1280] as const;
const PHONE_MESSAGE = 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)';
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

async function newContext(width: number, fixedTime?: string): Promise<BrowserContext> {
  const context = await suite.browser.newContext({ viewport: { width, height: 900 } });
  if (fixedTime) await context.clock.setFixedTime(new Date(fixedTime));
  return context;
}

async function home(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('tablist', { name: 'Booking type' }).waitFor();
  return page;
}

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** The pickup as the form shows it: date, the hour's value (SPEC 3 text) and label, the minute. */
async function shownPickup(page: Page) {
  const hour = page.getByLabel('Pickup time hour');
  return {
    date: await page.getByLabel('Pickup date').inputValue(),
    hour: await hour.inputValue(),
    hourLabel: (await hour.locator('option:checked').textContent())!,
    min: await page.getByLabel('Pickup time minute').inputValue(),
  };
}

const summary = async (page: Page) => (await page.getByRole('complementary').textContent())!;

/** A visitor with a priced trip at the details step. */
async function atDetails(width: number, days = 4): Promise<Page> {
  const page = await home(await newContext(width));
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(days));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.getByRole('article', { name: 'Saloon by Metro Cars London' }).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/personalDetailView');
  await page.getByRole('group', { name: 'How would you like to book?' }).waitFor();
  return page;
}

const alertText = async (page: Page) => {
  const dialog = page.getByRole('alertdialog');
  const text = await dialog.textContent();
  await dialog.getByRole('button').click();
  return text;
};

const mailsTo = (address: string) => outboxMails(server.dataDir).filter((m) => m.headers.to?.includes(address));

describe('phone numbers', () => {
  it.each(WIDTHS)('takes a UK number as people write it, keeps it as E.164 and shows it formatted up to the e-mail (%i px)', async (width) => {
    const email = `uk.phone.${width}@example.com`;
    const page = await atDetails(width);
    await page.getByLabel('First Name').fill('Imogen');
    await page.getByLabel('Last Name').fill('Clarke');
    await page.getByLabel('Email').fill(email);
    const phone = page.getByLabel('Phone Number');
    await phone.fill('0770 900');
    await phone.blur();
    const refused = page.getByText(PHONE_MESSAGE);
    await expect.poll(() => refused.isVisible()).toBe(true);
    await phone.fill('07700 900123');
    expect(await refused.count()).toBe(0);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');

    // Kept in its stored form (registrationData is base64 of JSON), shown formatted.
    const saved = await page.evaluate(() => localStorage.getItem('registrationData'));
    expect(JSON.parse(Buffer.from(saved!, 'base64').toString('utf8')).number).toBe('+447700900123');
    if (width < 769) await page.getByRole('button', { name: 'Show booking details' }).click();
    const who = page.getByRole('region', { name: 'Personal details' });
    expect(await who.textContent()).toContain('+44 7700 900123');
    expect(await who.getByText('+44 7700 900123').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    const shown = page.getByRole('row', { name: /^Phone/ }).getByRole('cell');
    expect(await shown.textContent()).toBe('+44 7700 900123');
    expect(await shown.isVisible()).toBe(true);
    await expect.poll(() => mailsTo(email).length).toBeGreaterThan(0);
    expect(mailsTo(email)[0].texts.join('\n')).toContain('+44 7700 900123');
  });

  it('takes a telephone on the Quote Now form, refuses what is not one, and e-mails it formatted (375 px)', async () => {
    const page = await (await newContext(375)).newPage();
    await page.goto(`${server.url}/quoteView`);
    await page.getByRole('heading', { name: 'Quote Now' }).waitFor();
    await page.getByLabel('Time').fill('09:30');
    await page.getByLabel('Email').fill('quote.phone@example.com');
    const telephone = page.getByLabel('Telephone');
    expect(await telephone.getAttribute('type')).toBe('tel');
    await telephone.fill('12345');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText(PHONE_MESSAGE).isVisible()).toBe(true);
    await telephone.fill('+44 20 7946 0321');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await alertText(page)).toContain('Your booking has been sent!');
    await expect.poll(() => outboxMails(server.dataDir).filter((m) => m.texts.join().includes('quote.phone@example.com')).length).toBe(1);
    const mail = outboxMails(server.dataDir).find((m) => m.texts.join().includes('quote.phone@example.com'))!;
    expect(mail.texts.join('\n')).toContain('+44 20 7946 0321');
  });

  it("shows a corporate passenger's phone formatted in the bookings' details and the profile, and saves a new one (1280 px)", async () => {
    const email = 'phone.corporate@example.com';
    const password = 'Corporate-7';
    const bookingForm = {
      pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Euston Station, Euston Road, London NW1 2RT',
      pickup_date: ukDateInDays(12), pickup_hour: '9am', pickup_min: '00',
    };
    const prices = await fetch(`${server.url}/api/v1/calculate-distance-price`, { method: 'POST', headers: KEYS, body: JSON.stringify(bookingForm) }).then((r) => r.json());
    const made = await fetch(`${server.url}/api/v1/booking`, {
      method: 'POST', headers: KEYS,
      body: JSON.stringify({
        selectedVehicleData: prices.price_details[0], bookingType: 'milleage', bookingForm, payment_method: 'car', selected_passenger: 'new_client',
        registrationData: { firstName: 'Oskar', surname: 'Lind', number: '07700 900456', email, password, privacyAccepted: true, termsAccepted: true },
      }),
    }).then((r) => r.json());
    const reference = made.data.booking.booking_number as string;

    const page = await (await newContext(1280)).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/bookings');
    await page.getByRole('button', { name: `Details of booking ${reference}` }).click();
    const phoneInDetails = page.getByRole('alertdialog').getByRole('term').filter({ hasText: /^Phone$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await phoneInDetails.textContent()).toBe('+44 7700 900456');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Close' }).first().click();

    await page.getByRole('link', { name: 'My Account', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/my-account');
    const phone = page.getByLabel('Phone');
    expect(await phone.inputValue()).toBe('+44 7700 900456');
    await phone.fill('0770 nine');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText(PHONE_MESSAGE).isVisible()).toBe(true);
    await phone.fill('020 7946 0999');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Passenger Details Updated').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    expect(await page.getByLabel('Phone').inputValue()).toBe('+44 20 7946 0999');
  });
});

describe('the pickup time a form opens on', () => {
  it.each(WIDTHS)('is the earliest bookable one in both forms, and an untouched form is priced, not urgent (%i px)', async (width) => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    // 10:02:10 in the UK (BST) with GRACE_TIME 120: 12:05 the same day.
    const page = await home(await newContext(width, '2030-07-01T09:02:10Z'));
    expect(await page.getByRole('tab', { name: 'Hourly Rate' }).getAttribute('aria-selected')).toBe('true');
    expect(await shownPickup(page)).toEqual({ date: '2030-07-01', hour: '12pm', hourLabel: '12 noon', min: '05' });
    await page.getByRole('tab', { name: 'GET A QUOTE' }).click();
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await shownPickup(page)).toEqual({ date: '2030-07-01', hour: '12pm', hourLabel: '12', min: '05' });
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await summary(page)).toContain('at 12:05');
    expect(await page.getByRole('alertdialog', { name: 'Urgent Booking!' }).count()).toBe(0);
  });

  it('is bookable at the real time too: the time it opens on reaches the quotation, not the urgent notice', async () => {
    // The browser is four minutes ahead, so crossing a five-minute mark between opening and pricing cannot matter.
    const ahead = Date.now() + 4 * 60_000;
    const page = await home(await newContext(1280, new Date(ahead).toISOString()));
    const t = new Date(Math.ceil((ahead + 120 * 60_000) / 300_000) * 300_000);
    const uk = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    }).formatToParts(t).map((p) => [p.type, p.value]));
    const shown = await shownPickup(page);
    expect([shown.date, shown.hourLabel, shown.min]).toEqual([`${uk.year}-${uk.month}-${uk.day}`, uk.hour, uk.minute]);
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await page.getByRole('alertdialog', { name: 'Urgent Booking!' }).count()).toBe(0);
  });

  it('moves on to the next day: 23:58 with GRACE_TIME 0 opens on 00:00 tomorrow, in both forms', async () => {
    await setting('GRACE_TIME', '0');
    await setting('HOURLY_RATE_STATUS', 'enable');
    const page = await home(await newContext(1280, '2030-01-15T23:58:00Z'));
    expect(await shownPickup(page)).toEqual({ date: '2030-01-16', hour: '12am', hourLabel: '12 midnight', min: '00' });
    await page.getByRole('tab', { name: 'GET A QUOTE' }).click();
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await shownPickup(page)).toEqual({ date: '2030-01-16', hour: '12am', hourLabel: '00', min: '00' });
  });

  it('keeps a saved pickup still ahead, and moves one that has passed to the earliest bookable time', async () => {
    const context = await newContext(1280, '2030-01-15T10:00:00Z');
    const page = await home(context);
    await choose(page, 'Pickup address', 'Paddington');
    await choose(page, 'Drop-off address', 'Canary Wharf');
    await page.getByLabel('Pickup time hour').selectOption('2pm');
    await page.getByLabel('Pickup time minute').selectOption('00');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');

    await context.clock.setFixedTime(new Date('2030-01-15T13:00:00Z'));
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await shownPickup(page)).toEqual({ date: '2030-01-15', hour: '2pm', hourLabel: '14', min: '00' });

    await context.clock.setFixedTime(new Date('2030-01-15T15:00:00Z'));
    await page.reload();
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await shownPickup(page)).toEqual({ date: '2030-01-15', hour: '5pm', hourLabel: '17', min: '00' });
    expect(await page.getByRole('combobox', { name: 'Pickup address' }).inputValue()).toBe('Paddington Station, Praed Street, London W2 1HQ');
  });
});

describe('hour choices', () => {
  it.each(WIDTHS)('read 12 midnight and 12 noon in time order on the hourly form, and book what they say (%i px)', async (width) => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    const page = await home(await newContext(width));
    await page.getByLabel('Duration').waitFor();
    const hour = page.getByLabel('Pickup time hour');
    const labels = await hour.locator('option').allTextContents();
    expect(labels.slice(0, 2).concat(labels.slice(11, 14), labels.slice(-1))).toEqual(['12 midnight', '1am', '11am', '12 noon', '1pm', '11pm']);
    // The longest label fits its select.
    await hour.selectOption('12am');
    expect(await hour.evaluate((el: HTMLSelectElement) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(el).font;
      return el.clientWidth - ctx.measureText('12 midnight').width;
    })).toBeGreaterThan(16);

    await choose(page, 'Pickup address', 'Canary Wharf');
    await page.getByLabel('Pickup date').fill(ukDateInDays(3));
    await hour.selectOption({ label: '12 noon' });
    await page.getByLabel('Pickup time minute').selectOption('00');
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await summary(page)).toContain('at 12:00');
    await page.goBack();
    await page.getByLabel('Pickup time hour').selectOption({ label: '12 midnight' });
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    expect(await summary(page)).toContain('at 00:00');
  });
});

describe('the return leg', () => {
  it.each(WIDTHS)('starts as a copy of the outbound passengers, luggage and extras, and can be changed (%i px)', async (width) => {
    const page = await home(await newContext(width));
    await page.getByLabel('Passengers', { exact: true }).selectOption('3');
    await page.getByLabel('Luggage', { exact: true }).selectOption('2');
    await page.getByLabel('Hand luggage', { exact: true }).selectOption('1');
    await page.getByLabel('Baby seats', { exact: true }).selectOption('1');
    await page.getByLabel('Waiting minutes', { exact: true }).selectOption('15');
    await page.getByLabel(/^Meet and Greet/).check();
    await page.getByText('Return', { exact: true }).click();
    const leg = page.getByRole('region', { name: 'Return journey' });
    await expect.poll(() => leg.isVisible()).toBe(true);
    const value = (label: string) => leg.getByLabel(label, { exact: true }).inputValue();
    expect([await value('Return passengers'), await value('Return luggage'), await value('Return hand luggage'),
      await value('Return baby seats'), await value('Return waiting minutes')]).toEqual(['3', '2', '1', '1', '15']);
    expect(await leg.getByLabel(/^Return meet and greet/).isChecked()).toBe(true);
    expect(await leg.getByLabel(/^Return wheelchair/).isChecked()).toBe(false);

    await leg.getByLabel('Return passengers', { exact: true }).selectOption('1');
    expect(await value('Return passengers')).toBe('1');
    expect(await page.getByLabel('Passengers', { exact: true }).inputValue()).toBe('3');
  });
});

describe("SPEC 5's password alert", () => {
  it.each([['a new client', 'New client'], ['an existing client', 'Existing client']])("says 'Enter Password for booking' to %s who left the password empty", async (_who, mode) => {
    const page = await atDetails(375);
    await page.getByText(mode, { exact: true }).click();
    if (mode === 'New client') {
      await page.getByLabel('First Name').fill('Ada');
      await page.getByLabel('Last Name').fill('Byron');
      await page.getByLabel('Phone Number').fill('07700 900123');
    }
    await page.getByLabel('Email').fill('no.password@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('Enter Password for booking');
    expect(new URL(page.url()).pathname).toBe('/personalDetailView');
  });
});
