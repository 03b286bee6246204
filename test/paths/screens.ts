// The path oracle's table (issue 28, part 4): what a person sees on each screen, written from SPEC 2 (routes and
// headings), SPEC 4 and 8 (the steps and their messages) and the issues, apart from the machines. The generated
// paths (./pathRunner.ts) ask each model's oracle which screen follows what the person did and what the server
// answered, and check that screen's facts here at every step: no expected fact comes from a machine's state or
// context. SPEC 8's messages are imported from src/domain/messages, the one place the app and the tests share
// SPEC's words.
import { expect } from 'vitest';
import { CARD_SERVICE_UNAVAILABLE, PAID_NOT_CONFIRMED } from '../../src/domain/messages';
import type { PathPage } from './pathRunner';

type Text = string | RegExp;

export interface ScreenFacts {
  /** The address bar's path (a pattern where SPEC gives the screen several). */
  path: string | RegExp;
  /** The page's heading (none on a screen that only says it is loading). */
  heading?: Text;
  /** Texts on the page, visible. */
  texts?: Text[];
  /** Inputs by their label. */
  fields?: string[];
  buttons?: Text[];
  links?: Text[];
}

const OP_BOOKING_PATH = /^\/operator\/bookings\/BK-[A-Z0-9]{8}$/;
const MANAGE_PATH = /^\/manage\/BK-[A-Z0-9]{8}$/;
const DRIVER_JOB_PATH = /^\/driver\/jobs\/BK-[A-Z0-9]{8}$/;
const CARD_INPUTS = ['Credit or debit card number', 'Credit or debit card expiration date', 'Credit or debit card security code'];

export const SCREENS = {
  // SPEC 2 '/stripecheckout' and SPEC 4 'Card payment'.
  cardForm: { path: '/stripecheckout', heading: 'Card payment', fields: CARD_INPUTS, buttons: [/^Pay £\d+\.\d\d$/] },
  cardUnavailable: {
    path: '/stripecheckout', heading: 'Card payment', texts: [CARD_SERVICE_UNAVAILABLE], buttons: ['Try again'], links: ['Choose another way to pay'],
  },
  // The money was taken but the booking not yet written: never 'Payment failed', never the card again.
  cardPaidNotConfirmed: { path: '/stripecheckout', heading: 'Card payment', texts: [PAID_NOT_CONFIRMED], buttons: ['Try again'] },
  // SPEC 2 '/paymentSuccessView'.
  bookingConfirmed: { path: '/paymentSuccessView', heading: 'Thank You', texts: ['Your Booking is Confirmed!'] },
  // SPEC 2 '/', '/home' and '/booktripview': the booking form, its tab's fields (Seen.tab and Seen.fields).
  bookTrip: { path: /^\/(home|booktripview)?$/, heading: 'Airport transfers and chauffeur cars across the UK', fields: ['Pickup address *'], buttons: ['Get prices'] },
  // SPEC 8's 'Urgent Booking!' notice over the form: the app goes to /quoteView after 1 s while it stays open (the
  // path cannot tell which side of that second a look falls on).
  urgentNotice: { path: /^\/(home|booktripview|quoteView)?$/ },
  // SPEC 2's wizard steps: vehicle results, personal details, payment, and the payment step's review.
  quotation: { path: '/quotationview', heading: 'Top results', buttons: ['Book Now'] },
  details: { path: '/personalDetailView', heading: 'Personal details', fields: ['Email *'], buttons: ['Next'] },
  payment: { path: '/paymentview', heading: 'Payment', texts: ['How would you like to pay?'] },
  checkout: { path: '/checkout', heading: 'Review your booking' },
  // SPEC 2 '/quoteView'.
  quote: {
    path: '/quoteView', heading: 'Quote Now', fields: ['Pickup address', 'Drop-off address', 'Date *', 'Time *', 'Email *', 'Telephone *', 'Name'],
    buttons: ['Send'],
  },
  // SPEC 2 '/' (also '/home'): the booking form.
  home: {
    path: /^\/(home)?$/, heading: 'Airport transfers and chauffeur cars across the UK', fields: ['Pickup address *', 'Drop-off address *'],
    buttons: ['Get prices'],
  },
  // SPEC 2 'Login', 'Bookings (corporate)' and 'Profile'.
  login: { path: '/login', heading: 'Sign In to Corporate Account', fields: ['Email *', 'Password *'], buttons: ['Sign In'] },
  bookings: { path: '/bookings', heading: 'Bookings', buttons: ['Logout'] },
  myAccount: { path: '/my-account', heading: 'My Account', fields: ['Name *', 'Email *', 'Phone'], buttons: [/^Save/, 'Logout'] },
  // Issue 44: the corporate area's Journeys and expenses, and Invoices, beside the bookings.
  journeys: { path: '/bookings/journeys', heading: 'Journeys and expenses', fields: ['From', 'To'], buttons: ['Show journeys', 'Logout'] },
  invoices: { path: '/bookings/invoices', heading: 'Invoices', buttons: ['Logout'] },
  // Issue 27: Find my booking, and a booking through its link (its own address, in capitals, never holding the key).
  manageFind: { path: '/manage', heading: 'Find your booking', fields: ['Booking reference *', 'E-mail address *'], buttons: ['Send me the link'] },
  manageFindSent: { path: '/manage', heading: 'Check your e-mail', buttons: ['Find another booking'] },
  manageNoKey: { path: MANAGE_PATH, heading: /^Open your booking BK-[A-Z0-9]{8}$/ },
  manageUnknown: { path: MANAGE_PATH, heading: 'We could not open this booking', links: ['Find my booking'] },
  manageExpired: { path: MANAGE_PATH, heading: 'This link has expired', links: ['Find my booking'] },
  manageUnloaded: { path: MANAGE_PATH, heading: 'Your booking could not be loaded', buttons: ['Try again'] },
  manageBooking: { path: MANAGE_PATH, heading: /^Your journey on / },
  manageCancelled: { path: MANAGE_PATH, heading: 'Your booking is cancelled' },
  manageEditing: { path: MANAGE_PATH, heading: 'Change your booking', buttons: ['Save changes', 'Discard changes'] },
  managePaying: { path: MANAGE_PATH, heading: /^Pay the difference of £\d+\.\d\d$/, fields: CARD_INPUTS, buttons: ['Not now'] },
  // SPEC 4 'Settings' and the areas' code on its way: the loading overlay, at the address asked for.
  loading: { path: /^\//, texts: ['Please wait while loading content'] },
  // SPEC 2 'Route guard': a stored token is checked before an account page shows.
  accountChecking: { path: /^\/(bookings|my-account|bookings\/journeys|bookings\/invoices)$/, texts: ['Please wait while loading content'] },
  // Issue 26: the console, its code on its way or its session being checked.
  consoleOpening: { path: /^\/operator(\/.*)?$/, texts: ['Opening the console'] },
  // Issue 41 §2: a driver's page, its code on its way or its session being checked.
  driverOpening: { path: /^\/driver(\/.*)?$/, texts: ['Opening your jobs'] },
  // Issue 41 §2: a driver's sign-in (the mobile, then the code texted to it), the jobs and one job (the bar's Sign out).
  driverSignIn: { path: '/driver', heading: 'Driver sign-in', fields: ['Mobile number *'], buttons: ['Text me a code'] },
  driverCode: { path: '/driver', heading: 'Driver sign-in', fields: ['Code *'], buttons: ['Sign in', 'Send a new code', 'Use another number'] },
  driverJobs: { path: '/driver', heading: 'Your jobs', buttons: ['Sign out'] },
  driverJob: { path: DRIVER_JOB_PATH, heading: /^Job BK-[A-Z0-9]{8}$/, buttons: ['Sign out'], links: ['All jobs'] },
  driverNotFound: { path: DRIVER_JOB_PATH, heading: 'Job not found', buttons: ['Sign out'], links: ['All jobs'] },
  // Issue 27: a manage address, its code on its way.
  manageAsked: { path: /^\/manage(\/[^/]+)?$/ },
  // SPEC 2 '/ourfleet'.
  fleet: { path: '/ourfleet', heading: 'Our Fleet' },
  // Issue 26: the operator's console (its bar's Sign out on every signed-in screen).
  opLogin: { path: '/operator/login', heading: 'Staff sign-in', fields: ['E-mail *', 'Password *'], buttons: ['Sign in'] },
  opBoard: { path: '/operator', heading: 'Bookings', buttons: ['Sign out'] },
  opBooking: { path: OP_BOOKING_PATH, heading: /^Booking BK-[A-Z0-9]{8}$/, buttons: ['Sign out'] },
  opNotFound: { path: OP_BOOKING_PATH, heading: /^No booking BK-/, buttons: ['Sign out'] },
  opMail: { path: '/operator/mail', heading: 'Mail', buttons: ['Sign out'] },
  opExport: { path: '/operator/export', heading: 'Export for the accounts', fields: ['First day', 'Last day'], buttons: ['Sign out', 'Download CSV'] },
  // Issue 41: a company's staff reach only their drivers and vehicles, under that heading.
  opData: { path: '/operator/data', heading: /^(Operator data|Drivers and vehicles)$/, buttons: ['Sign out'] },
  // Issue 44: the console's corporate accounts (the list, one account with its three forms, a new one) and invoices.
  opAccounts: { path: '/operator/accounts', heading: 'Accounts', buttons: ['Sign out'] },
  opAccount: { path: '/operator/accounts', buttons: ['Save changes', 'Add booker', 'Sign out'], links: ['Invoices of this account'] },
  opNewAccount: { path: '/operator/accounts', heading: 'New account', fields: ['Company name *', 'Billing e-mail *'], buttons: ['Add account', 'Sign out'] },
  opInvoices: { path: '/operator/invoices', heading: /^Invoices( of .+)?$/, buttons: ['Sign out'] },
  // SPEC 2 'Contact Us'.
  contact: {
    path: '/contactus', heading: 'Contact Us',
    fields: ['First name', 'Last name', 'Email', 'Telephone', 'Reason for your query', 'Booking number (if you have one)', 'Your message'],
    buttons: ['Send message'],
  },
  // SPEC 4 'Forgot password': one page, three steps, each a form of its own.
  resetEmail: { path: '/forgot_password', heading: 'Reset your password', fields: ['Email *'], buttons: ['Send code'] },
  resetCode: { path: '/forgot_password', heading: 'Reset your password', fields: ['Code *'], buttons: ['Verify code'] },
  resetPassword: {
    path: '/forgot_password', heading: 'Reset your password', fields: ['New password *', 'Confirm new password *'], buttons: ['Reset password'],
  },
} satisfies Record<string, ScreenFacts>;

export type ScreenName = keyof typeof SCREENS;

/** What a person sees at a step: a screen of the table, and what this visit adds to it. */
export interface Seen {
  screen: ScreenName;
  /** The dialog open over it (none when absent: a dialog that closed must be gone); an alert by default. */
  dialog?: { title: string; texts?: Text[]; role?: 'dialog' | 'alertdialog' };
  /** More texts the step shows (an answer's words), visible. */
  texts?: Text[];
  /** Texts in a live region: an alert (a refusal) or a status (a success). */
  alerts?: Text[];
  statuses?: Text[];
  /** The address bar's exact path, where the screen's allows several. */
  at?: string;
  /** The address bar's query ('' for none; a pattern where part of it is the server's), where the screen keeps one. */
  search?: string | RegExp;
  /** The tab selected, where the screen has tabs. */
  tab?: string;
  /** More inputs, by their label. */
  fields?: string[];
  /** Radio buttons and checkboxes checked, by their name. */
  checked?: Text[];
  /** Buttons the screen does not offer on this visit (looked for once the screen's own facts are seen). */
  noButtons?: string[];
  /** A refusal shown under the input it is about (decision 23), by the input's label: the input's description. */
  fieldErrors?: Record<string, Text>;
  /** Texts that must be gone (a message dismissed, or one shown for a while). */
  gone?: Text[];
  /** More buttons and links the step shows. */
  buttons?: Text[];
  links?: Text[];
  /** Inputs' values by label ('' for an empty one). */
  values?: Record<string, string>;
  /**
   * A service whose answer the screen shows when it comes, while the person may still act (a load the console shows
   * as loading; the card form paying a difference): its answer may follow, and the page must have asked for it.
   */
  awaits?: string;
  /** A form the inputs are in, by its name, when one page has several. */
  form?: string;
}

/** The page waits for a service's answer (by the name the page's machine invokes it by), or for time to pass. */
export interface Waiting { waiting: string }

export type Expected = Seen | Waiting;
export const isWaiting = (e: Expected): e is Waiting => 'waiting' in e;

/** Checks every fact of the screen and of this visit on the page, each waited for as a person would look for it. */
export async function seeScreen(p: PathPage, seen: Seen) {
  const facts: ScreenFacts = SCREENS[seen.screen];
  const { page } = p;
  if (typeof facts.path === 'string') await p.at(facts.path);
  else await expect.poll(() => p.url.pathname, { timeout: 10_000 }).toMatch(facts.path);
  if (seen.at !== undefined) await p.at(seen.at);
  if (facts.heading !== undefined) await p.heading(facts.heading);
  const scope = seen.form ? page.getByRole('form', { name: seen.form }) : page;
  for (const text of [...facts.texts ?? [], ...seen.texts ?? []]) await p.sees(text);
  if (seen.tab !== undefined) await page.getByRole('tab', { name: seen.tab, selected: true }).waitFor({ timeout: 10_000 });
  for (const label of [...facts.fields ?? [], ...seen.fields ?? []]) await scope.getByLabel(label, { exact: true }).first().waitFor({ timeout: 10_000 });
  if (typeof seen.search === 'string') await expect.poll(() => p.url.search, { timeout: 10_000 }).toBe(seen.search);
  else if (seen.search) await expect.poll(() => p.url.search, { timeout: 10_000 }).toMatch(seen.search);
  for (const name of [...facts.buttons ?? [], ...seen.buttons ?? []]) await scope.getByRole('button', { name, exact: typeof name === 'string' }).first().waitFor({ timeout: 10_000 });
  for (const name of [...facts.links ?? [], ...seen.links ?? []]) await page.getByRole('link', { name, exact: typeof name === 'string' }).first().waitFor({ timeout: 10_000 });
  for (const text of seen.alerts ?? []) await page.getByRole('alert').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
  for (const text of seen.statuses ?? []) await page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
  for (const [label, value] of Object.entries(seen.values ?? {})) {
    await expect.poll(() => scope.getByLabel(label, { exact: true }).first().inputValue(), { timeout: 10_000 }).toBe(value);
  }
  for (const name of seen.checked ?? []) await page.getByRole('radio', { name, checked: true }).or(page.getByRole('checkbox', { name, checked: true })).first().waitFor({ timeout: 10_000 });
  for (const [label, text] of Object.entries(seen.fieldErrors ?? {})) {
    const described = async () => {
      const ids = (await scope.getByLabel(label, { exact: true }).first().getAttribute('aria-describedby')) ?? '';
      const texts = await Promise.all(ids.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
      return texts.join(' ');
    };
    await expect.poll(described, { timeout: 10_000 })[typeof text === 'string' ? 'toContain' : 'toMatch'](text as never);
  }
  // What must be absent is looked for once the screen's own facts are there.
  for (const name of seen.noButtons ?? []) expect(await scope.getByRole('button', { name, exact: true }).count(), `no '${name}' button`).toBe(0);
  for (const text of seen.gone ?? []) await expect.poll(() => page.getByText(text).count(), { timeout: 10_000 }).toBe(0);
  if (seen.dialog?.role === 'dialog') await page.getByRole('dialog', { name: seen.dialog.title }).waitFor({ timeout: 10_000 });
  else if (seen.dialog) await p.dialog(seen.dialog.title, ...seen.dialog.texts ?? []);
  else await p.noDialog();
  // The address never holds a key from a link.
  expect(p.url.hash).toBe('');
}

/**
 * The service an answer event is from, by the model's answers of each service (`answers(machine, src)`): the oracles
 * name what a page waits for by service.
 */
export function serviceOf(e: { type: string }, services: Record<string, { done: () => { type: string }; fails: (x: unknown) => { type: string } }>) {
  return Object.entries(services).find(([, s]) => e.type === s.done().type || e.type === s.fails(null).type)?.[0];
}
export const isFailure = (e: { type: string }) => e.type.startsWith('xstate.error.actor.');

/** A short name of what is expected, for the runner's messages. */
export const describeExpected = (e: Expected) => (isWaiting(e) ? `waiting for ${e.waiting}` : `${e.screen}${e.dialog ? ` with '${e.dialog.title}'` : ''}`);
