// SPEC 2 'Screens and routes': the one catalogue of screens. Each has a name, its path (and the other paths that
// open it), the step it counts as in the step indicator, its area, the page title that names it ('Choose a vehicle |
// <company>'), whether it hides the site bar or needs a signed-in corporate passenger, and the view that shows it
// (by name: src/web finds the view, the build lists its files under that name). The machines say which screen each
// of their states shows (`meta: { screen }`); the address bar, the step indicator, the title, the Previous/Next
// control, links and the server's list of the site's pages all come from here.

/**
 * wizard: the booking steps; account: the corporate area; site: the pages around them (contact, fleet, terms...);
 * operator: the office's console (issue 26), a bundle of its own that a customer never loads; manage: a passenger's
 * own booking through its link, and Find my booking (issue 27), a bundle of its own too; driver: a driver's jobs and
 * their steps (issue 41 §2), phone-first, a bundle of its own.
 */
export type Area = 'wizard' | 'account' | 'site' | 'operator' | 'manage' | 'driver';

/** SPEC 2 'Step indicator': book trip 0, quotation 1, personal detail 2, payment 3. */
export type StepIndex = 0 | 1 | 2 | 3;

export interface Screen {
  path: string;
  /** What the page is for, first in the browser's title (issue 10: the title names the step). */
  title: string;
  aliases?: readonly string[];
  step?: StepIndex;
  hideNavbar?: boolean;
  area: Area;
  /** Needs a signed-in corporate passenger (SPEC 2 'Route guard'). */
  signedIn?: boolean;
  /**
   * The lazily loaded view that shows it, by name: the page served for its path names that view's files (the build's
   * dist/view-chunks.json, keyed by view name) so they load beside the main script (decision 32). None: in the main
   * script.
   */
  view?: string;
  /** SPEC 2 'Previous/Next control': the screens the step's Previous and Next lead to. */
  previous?: string;
  next?: string;
}

export const SCREENS = {
  home: { path: '/', title: 'Book a taxi or chauffeur', aliases: ['/home', '/booktripview'], step: 0, area: 'wizard' },
  quotation: { path: '/quotationview', title: 'Choose a vehicle', step: 1, area: 'wizard', view: 'QuotationView', previous: 'home', next: 'details' },
  details: { path: '/personalDetailView', title: 'Your details', step: 2, area: 'wizard', view: 'DetailsView' },
  payment: { path: '/paymentview', title: 'Choose how to pay', step: 3, area: 'wizard', view: 'PaymentView', previous: 'details', next: 'checkout' },
  // SPEC 2: the card page counts as the payment step.
  card: { path: '/stripecheckout', title: 'Pay by card', step: 3, area: 'wizard', view: 'CardView' },
  // SPEC 2: /checkout exists; here it is the payment step's review, under the payment step's guards.
  checkout: { path: '/checkout', title: 'Review your booking', step: 3, area: 'wizard', view: 'CheckoutView', previous: 'payment', next: 'checkout' },
  success: { path: '/paymentSuccessView', title: 'Booking confirmed', hideNavbar: true, area: 'wizard', view: 'SuccessView' },
  quote: { path: '/quoteView', title: 'Ask for a quote', area: 'wizard', view: 'QuoteView' },
  forgotPassword: { path: '/forgot_password', title: 'Reset your password', area: 'wizard', view: 'ForgotPasswordView' },
  contact: { path: '/contactus', title: 'Contact us', area: 'site', view: 'SiteArea' },
  fleet: { path: '/ourfleet', title: 'Our fleet', area: 'site', view: 'SiteArea' },
  terms: { path: '/terms-and-conditions', title: 'Terms and Conditions', area: 'site', view: 'SiteArea' },
  privacy: { path: '/privacy-policy', title: 'Privacy Policy', area: 'site', view: 'SiteArea' },
  accessibility: { path: '/accessibility', title: 'Accessibility statement', area: 'site', view: 'SiteArea' },
  login: { path: '/login', title: 'Sign in to your corporate account', hideNavbar: true, area: 'account', view: 'AccountArea' },
  bookings: { path: '/bookings', title: 'Your bookings', hideNavbar: true, area: 'account', signedIn: true, view: 'AccountArea' },
  myAccount: { path: '/my-account', title: 'My account', hideNavbar: true, area: 'account', signedIn: true, view: 'AccountArea' },
  // Issue 44: a booker's journeys for expenses (filtered, CSV) and their company account's invoices.
  journeys: { path: '/bookings/journeys', title: 'Journeys and expenses', hideNavbar: true, area: 'account', signedIn: true, view: 'AccountArea' },
  invoices: { path: '/bookings/invoices', title: 'Invoices', hideNavbar: true, area: 'account', signedIn: true, view: 'AccountArea' },
  // The console (issue 26). A `:name` part of a path stands for any one part (a booking's reference).
  operatorLogin: { path: '/operator/login', title: 'Staff sign-in', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorBoard: { path: '/operator', title: 'Bookings board', aliases: ['/operator/bookings'], hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorBooking: { path: '/operator/bookings/:reference', title: 'Booking', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorMail: { path: '/operator/mail', title: 'Mail', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorExport: { path: '/operator/export', title: 'Export for the accounts', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorData: { path: '/operator/data', title: 'Operator data', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorRecords: { path: '/operator/records', title: 'Booking records', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  // A booking taken on the telephone (issue 43 §1).
  operatorNewBooking: { path: '/operator/new-booking', title: 'New booking', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  // Issue 43 §3: the registers of complaints and of lost property (an entry: ?id=12; a new one: ?new=1).
  operatorComplaints: { path: '/operator/complaints', title: 'Complaints', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorLostProperty: { path: '/operator/lost-property', title: 'Lost property', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  // A passenger's requests about their personal data (issue 43 §4): administrators; the address is never in the URL.
  operatorPrivacy: { path: '/operator/privacy', title: 'Privacy requests', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  // Issue 44: corporate accounts (an account's record, booking fields and bookers) and their monthly invoices.
  operatorAccounts: { path: '/operator/accounts', title: 'Accounts', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  operatorInvoices: { path: '/operator/invoices', title: 'Account invoices', hideNavbar: true, area: 'operator', view: 'OperatorArea' },
  // A passenger's booking through its link (issue 27), and the page that e-mails a lost link.
  manageFind: { path: '/manage', title: 'Find your booking', area: 'manage', view: 'ManageArea' },
  manageBooking: { path: '/manage/:reference', title: 'Your booking', area: 'manage', view: 'ManageArea' },
  // A card payment link for a booking taken by phone (issue 43): the passenger's page, in the manage area's bundle.
  payLink: { path: '/pay/:reference', title: 'Pay for your booking', area: 'manage', view: 'ManageArea' },
  // A driver's page (issue 41 §2): the sign-in and the jobs, and one job.
  driverJobs: { path: '/driver', title: 'Driver jobs', aliases: ['/driver/jobs'], hideNavbar: true, area: 'driver', view: 'DriverArea' },
  driverJob: { path: '/driver/jobs/:reference', title: 'Job', hideNavbar: true, area: 'driver', view: 'DriverArea' },
} as const satisfies Record<string, Screen & { previous?: string; next?: string }>;

export type ScreenName = keyof typeof SCREENS;
type InArea<A extends Area> = { [K in ScreenName]: (typeof SCREENS)[K]['area'] extends A ? K : never }[ScreenName];
export type WizardScreen = InArea<'wizard'>;
export type AccountScreen = InArea<'account'>;
export type SiteScreen = InArea<'site'>;
export type OperatorScreen = InArea<'operator'>;
export type ManageScreen = InArea<'manage'>;
export type DriverScreen = InArea<'driver'>;

/** SPEC 2 'Step indicator': its four steps, each named and leading to its screen. */
export const STEPS = [
  { label: 'Location', screen: 'home' },
  { label: 'Vehicle', screen: 'quotation' },
  { label: 'Details', screen: 'details' },
  { label: 'Payment', screen: 'payment' },
] as const satisfies readonly { label: string; screen: ScreenName }[];

const NAMES = Object.keys(SCREENS) as ScreenName[];
const screen = (name: ScreenName): Screen => SCREENS[name];
const pathsOf = (name: ScreenName): readonly string[] => [screen(name).path, ...(screen(name).aliases ?? [])];

/** Whether a path is the pattern's: the same parts (without case), a `:name` part standing for any one part. */
function pathMatches(pattern: string, path: string): boolean {
  if (!pattern.includes(':')) return pattern.toLowerCase() === path.toLowerCase();
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((w, i) => (w.startsWith(':') ? got[i] !== '' : w.toLowerCase() === got[i].toLowerCase()));
}

/** The screen a path names (paths are matched without case, as the original site did); null for any other path. */
export function screenOfPath(path: string): ScreenName | null {
  return NAMES.find((n) => pathsOf(n).some((x) => pathMatches(x, path))) ?? null;
}

/** A path of a screen with its `:name` parts filled in ('/operator/bookings/BK-2X7Q9M4P'). */
export const pathWith = (name: ScreenName, params: Record<string, string>): string =>
  pathOfScreen(name).replace(/:(\w+)/g, (_m, key: string) => encodeURIComponent(params[key] ?? ''));

/** The `:name` parts of a path of a screen ('/operator/bookings/BK-2X7Q9M4P' gives { reference: 'BK-2X7Q9M4P' }). */
export function paramsOf(name: ScreenName, path: string): Record<string, string> {
  const want = pathOfScreen(name).split('/');
  const got = path.split('/');
  return Object.fromEntries(want.flatMap((w, i) => (w.startsWith(':') && got[i] ? [[w.slice(1), decodeURIComponent(got[i])]] : [])));
}

export const pathOfScreen = (name: ScreenName): string => screen(name).path;
/** SPEC 2: a request a step guard turns back lands on the home screen under /home. */
export const TURNED_BACK_HOME_PATH: string = SCREENS.home.aliases[0];
/** Whether a path is one of the screen's own (its path or an alias, as typed). */
export const isPathOf = (name: ScreenName, path: string): boolean => pathsOf(name).includes(path);
export const areaOfScreen = (name: ScreenName): Area => screen(name).area;
/** Any path that is no screen's opens the home page, in the wizard. */
export const areaOfPath = (path: string): Area => areaOfScreen(screenOfPath(path) ?? 'home');
export const needsSignIn = (name: ScreenName): boolean => screen(name).signedIn === true;
export const hidesNavbar = (path: string): boolean => {
  const name = screenOfPath(path);
  return name !== null && screen(name).hideNavbar === true;
};
/** The step of a path (the card page and the review count as payment); any other path is step 0. */
export function stepOfPath(path: string): StepIndex {
  const name = screenOfPath(path);
  return (name && screen(name).step) || 0;
}
/** The lazily loaded view the path opens, by name, or null for the home page and unknown paths. */
export function viewOfPath(path: string): ViewName | null {
  const name = screenOfPath(path);
  return name ? viewOfScreen(name) : null;
}
/** The name of a view some screen is shown by. */
export type ViewName = { [K in ScreenName]: (typeof SCREENS)[K] extends { view: infer V } ? V : never }[ScreenName];
/** The view a screen is shown by, or null when the main script shows it. */
export const viewOfScreen = (name: ScreenName): ViewName | null => ((SCREENS[name] as Screen).view as ViewName | undefined) ?? null;

/** The browser's title for a path: what the page is for, then the operator ('Choose a vehicle | Albion Executive Cars'). */
export function pageTitle(path: string, company: string | undefined): string {
  const title = screen(screenOfPath(path) ?? 'home').title;
  return company?.trim() ? `${title} | ${company.trim()}` : title;
}

/** SPEC 2 'Previous/Next control': Next is hidden when it would go to /, /checkout or /personalDetailView. */
export const showsNext = (next: ScreenName): boolean => !(['home', 'checkout', 'details'] as ScreenName[]).includes(next);

/** SPEC 2 'Previous/Next control': where a step's controls lead (null: Next hidden); null for a screen without them. */
export function prevNextOf(name: ScreenName): { previous: ScreenName; next: ScreenName | null } | null {
  const s = screen(name);
  if (!s.previous || !s.next) return null;
  const [previous, next] = [s.previous as ScreenName, s.next as ScreenName];
  return { previous, next: showsNext(next) ? next : null };
}

/** A location as the browser has it: the path and the query string ('' or '?...'). */
export interface Location { path: string; search: string }

export const urlOf = (l: Location): string => l.path + l.search;
export const locationOfScreen = (name: ScreenName, search = ''): Location => ({ path: pathOfScreen(name), search });

/** The wanted location as `?redirect=` holds it on the way to /login. */
export const redirectSearch = (wanted: Location): string => `?redirect=${encodeURIComponent(urlOf(wanted))}`;

/**
 * The target of /login's `redirect` parameter: a path on this site (never another host, so a link cannot send a
 * signed-in passenger elsewhere), or null.
 */
export function redirectTarget(search: string): Location | null {
  const raw = new URLSearchParams(search).get('redirect');
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  const url = new URL(raw, 'http://site.invalid');
  if (url.host !== 'site.invalid') return null;
  return { path: url.pathname, search: url.search };
}
