// Issue 26 'Operator data' and decision 41: the settings the console edits (SPEC 3 'Setting keys read' and the README's
// table of the settings issues added), the kind of value each takes, and the message a wrong value gets.
// The catalogue is built when its module loads, so each test loads a copy of its own (an import with a query of its
// own): a mutation run counts only what a test runs (docs/mutation.md, 'static' mutants). What it imports is loaded
// once, here, as the file loads, so only the catalogue's own load-time code counts against the tests.
import { describe, expect, it } from 'vitest';
import '../../src/domain/settingsCatalogue';

let copies = 0;
// Unique to this load of the file: a mutation run loads the file again for each mutant in one worker, and a copy
// named as before would be the one already loaded, without the mutant.
const COPY = Math.random().toString(36).slice(2);

type Catalogue = typeof import('../../src/domain/settingsCatalogue');

async function load(): Promise<Catalogue & { info: (name: string) => Catalogue['SETTINGS_CATALOGUE'][number] }> {
  const c: Catalogue = await import(/* @vite-ignore */ `../../src/domain/settingsCatalogue.ts?copy=${COPY}-${++copies}`);
  const info = (name: string) => {
    const found = c.SETTINGS_CATALOGUE.find((s) => s.name === name);
    if (!found) throw new Error(`${name} is not in the catalogue`);
    return found;
  };
  return { ...c, info };
}

/** SPEC 3 'Setting keys read', in its order, with the kind of value SPEC gives each ("Toggles use the literal value
 * enable (some use yes)": SPEC 9's SHOWPAYINCAR, SHOWCARD and ROUND_OFF are the yes ones; the extras are priced in
 * pounds, SPEC 5; GRACE_TIME is minutes). */
const SPEC_3_SETTINGS: Record<string, string> = {
  Company_Contact_Info: 'text', Company_Name: 'text', FROM_EMAIL: 'email', NAVBAR_OUR_FLEET_PAGE: 'toggle',
  NAVBAR_URGENT_BOOKING_PAGE: 'toggle', CORPORATE_LOGIN: 'toggle', SHOW_FOOTER_PAGE: 'toggle', SHOW_NAVBAR_PAGE: 'toggle',
  GOOGLE_API_KEY: 'text', MULTIPLE_PRICES: 'toggle', CHEAPEST_COMPANY_PRICE: 'toggle', IS_QUOTATION: 'toggle',
  HOURLY_RATE_STATUS: 'toggle', SHOW_COMPANY_FLEET_VIEW_SECTION: 'toggle', SHOW_COMPANY_CONTACT_SECTION: 'toggle',
  SHOW_POPULAR_LOCATION_PAGE: 'toggle', MULTIPLE_OPERATORS: 'toggle', GRACE_TIME: 'minutes', MEET_AND_GREET: 'money',
  BABY_PRICE_PER_SEAT: 'money', BOOSTER_PRICE_PER_SEAT: 'money', WHEEL_CHAIR: 'money', SPECIAL_LUGGAGE_PER_PRICE: 'money',
  PRICE_PER_FIVE_WAITING_MIN: 'money', CURRENCY: 'text', GUEST_LOGIN: 'toggle', SHOWPAYINCAR: 'yesNo', SHOWCARD: 'yesNo',
  ROUND_OFF: 'yesNo',
};

/** The settings issues added (README 'Operator data': the table of settings beyond SPEC's toggles; the page texts'
 * {email} and {address} come from Company_Email and Company_Address). */
const ADDED_SETTINGS: Record<string, string> = {
  Company_Email: 'email', Company_Address: 'text', OPERATOR_EMAIL: 'email',
  CHANGE_CUTOFF_HOURS: 'hours', CANCELLATION_WINDOW_HOURS: 'hours',
  FREE_WAITING_AIRPORT_MINUTES: 'minutes', FREE_WAITING_MINUTES: 'minutes',
  VAT_NUMBER: 'text', VAT_RATE: 'percent',
  // Issue 41 §5: the board's alerts.
  ALERT_NO_DRIVER_MINUTES: 'minutes', ALERT_NOT_ACCEPTED_MINUTES: 'minutes', ALERT_NOT_ON_WAY_MINUTES: 'minutes',
  // Issue 41 §3: the map of the car.
  MAP_TILE_URL: 'tileUrl', MAP_TILE_ATTRIBUTION: 'text',
  // Issue 42: airport pickups that follow the flight.
  FLIGHT_CHECK_MINUTES: 'minutes', FLIGHT_CHECK_NEAR_MINUTES: 'minutes', FLIGHT_ARRIVALS_DOMESTIC_MINUTES: 'minutes',
  FLIGHT_ARRIVALS_INTERNATIONAL_MINUTES: 'minutes', FLIGHT_PICKUP_EARLIER: 'yesNo', FLIGHT_TELL_MINUTES: 'minutes',
  FLIGHT_CALLS_PER_MINUTE: 'count', FLIGHT_CALLS_PER_DAY: 'count',
  TERMS_AND_CONDITIONS: 'longText', PRIVACY_POLICY: 'longText', ACCESSIBILITY_STATEMENT: 'longText',
  // Issue 43: the operator's licence on its records, card payment links, how long personal data is kept.
  OPERATOR_LICENCE_NUMBER: 'text', OPERATOR_LICENSING_AUTHORITY: 'text', PAYMENT_LINK_HOURS: 'hours',
  RECORDS_RETENTION_MONTHS: 'months', INVOICE_RETENTION_YEARS: 'years',
};

describe('the settings the console changes', () => {
  it('are every setting SPEC 3 reads and those the issues added, each with the kind of value it takes, and no others', async () => {
    const { SETTINGS_CATALOGUE } = await load();
    const kinds = Object.fromEntries(SETTINGS_CATALOGUE.map((s) => [s.name, s.kind]));
    expect(kinds).toEqual({ ...SPEC_3_SETTINGS, ...ADDED_SETTINGS });
    expect(SETTINGS_CATALOGUE).toHaveLength(Object.keys(kinds).length);
  });

  it('are found by their name, and a name that is not a setting finds nothing', async () => {
    const { settingInfo } = await load();
    expect(settingInfo('VAT_RATE')).toMatchObject({ name: 'VAT_RATE', kind: 'percent' });
    expect(settingInfo('GRACE_TIME')).toMatchObject({ name: 'GRACE_TIME', kind: 'minutes' });
    expect(settingInfo('API_SECRET')).toBeNull();
    expect(settingInfo('')).toBeNull();
  });

  it('each have a label of their own for the person changing them', async () => {
    const { SETTINGS_CATALOGUE } = await load();
    for (const s of SETTINGS_CATALOGUE) expect(s.label.trim(), s.name).not.toBe('');
    expect(new Set(SETTINGS_CATALOGUE.map((s) => s.label)).size).toBe(SETTINGS_CATALOGUE.length);
  });

  it('each sit in one of the groups the console shows, and every group shown has settings', async () => {
    const { SETTINGS_CATALOGUE, SETTING_GROUPS } = await load();
    expect(SETTING_GROUPS.length).toBeGreaterThan(1);
    expect(new Set(SETTING_GROUPS).size).toBe(SETTING_GROUPS.length);
    for (const group of SETTING_GROUPS) {
      expect(group.trim(), 'a group has a title').not.toBe('');
      expect(SETTINGS_CATALOGUE.filter((s) => s.group === group).length, group).toBeGreaterThan(0);
    }
    for (const s of SETTINGS_CATALOGUE) expect(SETTING_GROUPS, s.name).toContain(s.group);
  });

  it('name the extras they price, and say how each is priced: once, per item, or per 5 minutes of waiting started', async () => {
    const { info } = await load();
    // SPEC 3 and 5: meet and greet and a wheelchair are asked yes or no, seats and special luggage counted, waiting in minutes.
    for (const name of ['MEET_AND_GREET', 'WHEEL_CHAIR']) expect(info(name).label, name).not.toMatch(/each|per /i);
    expect(info('MEET_AND_GREET').label).toMatch(/meet and greet/i);
    expect(info('WHEEL_CHAIR').label).toMatch(/wheelchair/i);
    expect(info('BABY_PRICE_PER_SEAT').label).toMatch(/baby seat.*, each$/i);
    expect(info('BOOSTER_PRICE_PER_SEAT').label).toMatch(/booster seat.*, each$/i);
    expect(info('SPECIAL_LUGGAGE_PER_PRICE').label).toMatch(/special luggage.*, each$/i);
    expect(info('PRICE_PER_FIVE_WAITING_MIN').label).toMatch(/waiting.*per 5 started/i);
    expect(info('PRICE_PER_FIVE_WAITING_MIN').label).not.toMatch(/each/);
  });

  it('say in a hint what is not in their label: what empty means, the unit, what 0 does', async () => {
    const { SETTINGS_CATALOGUE, info } = await load();
    const hints: Record<string, RegExp> = {
      // README: unset, the office's mail goes to FROM_EMAIL.
      OPERATOR_EMAIL: /empty: the address e-mails are sent from/i,
      // README: without a key, suggestions come from the operator's own list.
      GOOGLE_API_KEY: /^empty: /i,
      // SPEC 3: GRACE_TIME is minutes; README: sooner pickups go to the quote form.
      GRACE_TIME: /minutes.*quote form/i,
      // README's defaults.
      FREE_WAITING_AIRPORT_MINUTES: /empty: 45\b/, FREE_WAITING_MINUTES: /empty: 15\b/,
      // Issue 41 §5's defaults (src/domain/tracking.ts DEFAULT_ALERT_MINUTES).
      ALERT_NO_DRIVER_MINUTES: /before the pickup .*\(empty: 60\)/, ALERT_NOT_ACCEPTED_MINUTES: /after the assignment .*\(empty: 10\)/,
      ALERT_NOT_ON_WAY_MINUTES: /before the pickup .*\(empty: 30\)/,
      MAP_TILE_URL: /\{z\}, \{x\} and \{y\}.*Empty: the car’s distance and time in words, no map/, MAP_TILE_ATTRIBUTION: /asks to be shown on the map/,
      // Issue 42's defaults (src/domain/flights.ts DEFAULT_FLIGHT_SETTINGS).
      FLIGHT_CHECK_MINUTES: /4 hours before it lands \(empty: 15\)/, FLIGHT_CHECK_NEAR_MINUTES: /within 2 hours .*\(empty: 5\)/,
      FLIGHT_ARRIVALS_DOMESTIC_MINUTES: /landing plus .*from the UK \(empty: 15\)/, FLIGHT_ARRIVALS_INTERNATIONAL_MINUTES: /from abroad \(empty: 30\)/,
      FLIGHT_PICKUP_EARLIER: /^Off: a pickup never moves earlier than booked/, FLIGHT_TELL_MINUTES: /smaller move .*without a message \(empty: 15\)/,
      FLIGHT_CALLS_PER_MINUTE: /plan's allowance \(empty: 10\)/, FLIGHT_CALLS_PER_DAY: /plan's allowance \(empty: 1000\)/,
      CHANGE_CUTOFF_HOURS: /as booked: moving it later does not move this \(empty: 2\)/,
      CANCELLATION_WINDOW_HOURS: /as booked: moving it later does not move this \(empty: 24\)/, VAT_RATE: /empty: 20\b/i,
      // README: a VAT number makes the receipts of paid or completed bookings VAT invoices, never changed (decision 48).
      VAT_NUMBER: /paid by card or completed is a VAT invoice, numbered without gaps and never changed; a later refund or payment is a credit or debit note/,
      // README: empty uses the built-in text.
      TERMS_AND_CONDITIONS: /empty: the built-in text/i, PRIVACY_POLICY: /empty: the built-in text/i,
      ACCESSIBILITY_STATEMENT: /empty: the built-in text/i,
      // Issue 43: where the licence shows; a link's default and its limit before the pickup; personal data's times.
      OPERATOR_LICENCE_NUMBER: /^Printed at the top of the booking records/, OPERATOR_LICENSING_AUTHORITY: /council or Transport for London/,
      PAYMENT_LINK_HOURS: /never later than 30 minutes before the pickup \(empty: 24\)/,
      RECORDS_RETENTION_MONTHS: /Months after the journey .*\(empty: 12\)/, INVOICE_RETENTION_YEARS: /Years after the invoice date.*\(empty: 6\)/,
      // SPEC 5: an extra appears only when its setting is greater than 0.
      MEET_AND_GREET: /^0 takes it off the booking form/, BABY_PRICE_PER_SEAT: /^0 takes it off the booking form/,
      BOOSTER_PRICE_PER_SEAT: /^0 takes it off the booking form/, WHEEL_CHAIR: /^0 takes it off the booking form/,
      SPECIAL_LUGGAGE_PER_PRICE: /^0 takes it off the booking form/, PRICE_PER_FIVE_WAITING_MIN: /^0 takes it off the booking form/,
    };
    for (const [name, hint] of Object.entries(hints)) expect(info(name).hint, name).toMatch(hint);
    // The others say it all in their label.
    for (const s of SETTINGS_CATALOGUE.filter((x) => !(x.name in hints))) expect(s.hint, s.name).toBeUndefined();
  });
});

describe('a value for a setting', () => {
  it('of a switch is enable or disable, and a switch of SPEC\'s yes kind yes or no; anything else asks for on or off', async () => {
    const { SETTINGS_CATALOGUE, settingProblem } = await load();
    for (const s of SETTINGS_CATALOGUE.filter((x) => x.kind === 'toggle')) {
      expect([settingProblem(s, 'enable'), settingProblem(s, 'disable')], s.name).toEqual([null, null]);
      for (const wrong of ['yes', 'no', 'on', '', 'enabled']) expect(settingProblem(s, wrong), `${s.name}=${wrong}`).toBe(`${s.label}: choose on or off.`);
    }
    for (const s of SETTINGS_CATALOGUE.filter((x) => x.kind === 'yesNo')) {
      expect([settingProblem(s, 'yes'), settingProblem(s, 'no')], s.name).toEqual([null, null]);
      for (const wrong of ['enable', 'disable', 'y', '']) expect(settingProblem(s, wrong), `${s.name}=${wrong}`).toBe(`${s.label}: choose on or off.`);
    }
  });

  it('in minutes is a whole number, spaces around it aside (the server trims what it stores)', async () => {
    const { info, settingProblem } = await load();
    const grace = info('GRACE_TIME');
    for (const ok of ['0', '5', '120', ' 90 ']) expect(settingProblem(grace, ok), ok).toBeNull();
    for (const wrong of ['two hours', '1.5', '-5', 'x120', '120x', '2h']) {
      expect(settingProblem(grace, wrong), wrong).toBe(`${grace.label}: enter a whole number of minutes, like 120.`);
    }
    expect(settingProblem(grace, '')).toBe(`${grace.label}: enter a whole number of minutes, like 120.`);
  });

  it('of free waiting is empty for the default the hint names, or a whole number of minutes up to 10 hours (the site reads no more)', async () => {
    const { info, settingProblem } = await load();
    for (const name of ['FREE_WAITING_AIRPORT_MINUTES', 'FREE_WAITING_MINUTES']) {
      const waiting = info(name);
      for (const ok of ['', '  ', '0', '60', '600', ' 45 ']) expect(settingProblem(waiting, ok), `${name}=${ok}`).toBeNull();
      for (const wrong of ['an hour', '601', '720', '99999', '1.5', '-5']) {
        expect(settingProblem(waiting, wrong), `${name}=${wrong}`).toBe(`${waiting.label}: enter a whole number of minutes up to 600, or leave it empty.`);
      }
    }
  });

  it('in hours is a whole number, or empty for the default (README: 2 to change, 24 to cancel free)', async () => {
    const { info, settingProblem } = await load();
    for (const name of ['CHANGE_CUTOFF_HOURS', 'CANCELLATION_WINDOW_HOURS']) {
      const s = info(name);
      for (const ok of ['', '0', '2', '48', ' 24 ']) expect(settingProblem(s, ok), `${name}=${ok}`).toBeNull();
      for (const wrong of ['a day', '1.5', 'x24', '24x', '-2']) {
        expect(settingProblem(s, wrong), `${name}=${wrong}`).toBe(`${s.label}: enter a whole number of hours, like 24.`);
      }
    }
  });

  it('of the VAT rate is a rate in per cent, or empty for 20, and under 100 as the receipts read it', async () => {
    const { info, settingProblem } = await load();
    const vat = info('VAT_RATE');
    for (const ok of ['', '20', '5', '0', '17.5']) expect(settingProblem(vat, ok), ok).toBeNull();
    for (const wrong of ['20%', 'about 20', '100', 'twenty']) {
      expect(settingProblem(vat, wrong), wrong).toBe(`${vat.label}: enter a rate in per cent, like 20.`);
    }
  });

  it('of an extra\'s price is pounds and pence, never part of a penny (decision 2: money is whole pence)', async () => {
    const { SETTINGS_CATALOGUE, settingProblem } = await load();
    const prices = SETTINGS_CATALOGUE.filter((x) => x.kind === 'money');
    expect(prices.length).toBe(6);
    for (const s of prices) {
      for (const ok of ['0', '15', '12.50', '8.5', ' 10 ']) expect(settingProblem(s, ok), `${s.name}=${ok}`).toBeNull();
      for (const wrong of ['£15', '12.505', '-3', 'ten', '15 pounds']) {
        expect(settingProblem(s, wrong), `${s.name}=${wrong}`).toBe(`${s.label}: enter an amount in pounds, like 12.50.`);
      }
    }
  });

  it('of an e-mail setting is one address, or empty', async () => {
    const { SETTINGS_CATALOGUE, settingProblem } = await load();
    for (const s of SETTINGS_CATALOGUE.filter((x) => x.kind === 'email')) {
      for (const ok of ['', 'office@example.co.uk', ' office@example.co.uk ']) expect(settingProblem(s, ok), `${s.name}=${ok}`).toBeNull();
      for (const wrong of ['office', 'a@b.co, c@d.co']) {
        expect(settingProblem(s, wrong), `${s.name}=${wrong}`).toBe(`${s.label}: enter an e-mail address, or leave it empty.`);
      }
    }
  });

  it('of text is what its message promises: at most 300 characters, and a page text at most 20,000', async () => {
    const { info, settingProblem } = await load();
    const name = info('Company_Name');
    expect(settingProblem(name, '')).toBeNull();
    expect(settingProblem(name, 'x'.repeat(300))).toBeNull();
    expect(settingProblem(name, 'x'.repeat(301))).toBe(`${name.label}: at most 300 characters.`);
    const terms = info('TERMS_AND_CONDITIONS');
    expect(settingProblem(terms, '')).toBeNull();
    expect(settingProblem(terms, `## Fares\n\n${'x'.repeat(19_990)}`)).toBeNull();
    expect(settingProblem(terms, 'x'.repeat(20_000))).toBeNull();
    expect(settingProblem(terms, 'x'.repeat(20_001))).toBe(`${terms.label}: at most 20,000 characters.`);
  });
});

describe('a switch in the console', () => {
  it('reads enable, or yes for SPEC\'s yes switches, as on, and anything else or nothing as off', async () => {
    const { info, isOn } = await load();
    const hourly = info('HOURLY_RATE_STATUS');
    const card = info('SHOWCARD');
    expect([isOn(hourly, 'enable'), isOn(hourly, 'disable'), isOn(hourly, 'yes'), isOn(hourly, undefined)]).toEqual([true, false, false, false]);
    expect([isOn(card, 'yes'), isOn(card, 'no'), isOn(card, 'enable'), isOn(card, undefined)]).toEqual([true, false, false, false]);
  });

  it('writes on and off as the site reads them, and each is a value the console takes', async () => {
    const { info, onOff, isOn, settingProblem } = await load();
    const hourly = info('HOURLY_RATE_STATUS');
    const roundOff = info('ROUND_OFF');
    expect([onOff(hourly, true), onOff(hourly, false)]).toEqual(['enable', 'disable']);
    expect([onOff(roundOff, true), onOff(roundOff, false)]).toEqual(['yes', 'no']);
    for (const s of [hourly, roundOff]) {
      for (const on of [true, false]) {
        expect(settingProblem(s, onOff(s, on))).toBeNull();
        expect(isOn(s, onOff(s, on))).toBe(on);
      }
    }
  });
});
