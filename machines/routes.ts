// SPEC 2 'Screens and routes': the one route table. Each screen has a name,
// its path (and the other paths that open it), the step it counts as in the
// step indicator, whether it hides the site bar, which machine owns it, and the
// page title that names it ('Choose a vehicle | <company>').
// The machines route by it, the views link by name through it.

/** booking: the wizard; account: the corporate area; site: the pages around them (contact, fleet, terms...). */
export type Area = 'booking' | 'account' | 'site';

export interface Route {
  path: string;
  /** What the page is for, first in the browser's title (issue 10: the title names the step). */
  title: string;
  aliases?: readonly string[];
  /** SPEC 2 'Step indicator': book trip 0, quotation 1, personal detail 2, payment 3. */
  step?: 0 | 1 | 2 | 3;
  hideNavbar?: boolean;
  area: Area;
  /** Needs a signed-in corporate passenger (SPEC 2 'Route guard'). */
  signedIn?: boolean;
  /**
   * The lazily loaded module that shows it (from the project root; src/web/App.tsx imports it): the page served for
   * the path hints that module's files (dist/view-chunks.json), so they load beside the main script (decision 32).
   */
  view?: string;
}

const SITE_VIEW = 'src/web/views/site/SiteArea.tsx';
const ACCOUNT_VIEW = 'src/web/views/account/AccountArea.tsx';

export const ROUTES = {
  home: { path: '/', title: 'Book a taxi or chauffeur', aliases: ['/home', '/booktripview'], step: 0, area: 'booking' },
  quotation: { path: '/quotationview', title: 'Choose a vehicle', step: 1, area: 'booking', view: 'src/web/views/quotation/QuotationView.tsx' },
  details: { path: '/personalDetailView', title: 'Your details', step: 2, area: 'booking', view: 'src/web/views/details/DetailsView.tsx' },
  payment: { path: '/paymentview', title: 'Choose how to pay', step: 3, area: 'booking', view: 'src/web/views/payment/PaymentView.tsx' },
  // SPEC 2: the card page counts as the payment step.
  card: { path: '/stripecheckout', title: 'Pay by card', step: 3, area: 'booking', view: 'src/web/views/card/CardView.tsx' },
  // SPEC 2: /checkout exists; here it is the payment step's review, under the payment step's guards.
  checkout: { path: '/checkout', title: 'Review your booking', step: 3, area: 'booking', view: 'src/web/views/checkout/CheckoutView.tsx' },
  success: { path: '/paymentSuccessView', title: 'Booking confirmed', hideNavbar: true, area: 'booking', view: 'src/web/views/success/SuccessView.tsx' },
  quote: { path: '/quoteView', title: 'Ask for a quote', area: 'booking', view: 'src/web/views/quote/QuoteView.tsx' },
  forgotPassword: { path: '/forgot_password', title: 'Reset your password', area: 'booking', view: 'src/web/views/forgot/ForgotPasswordView.tsx' },
  contact: { path: '/contactus', title: 'Contact us', area: 'site', view: SITE_VIEW },
  fleet: { path: '/ourfleet', title: 'Our fleet', area: 'site', view: SITE_VIEW },
  terms: { path: '/terms-and-conditions', title: 'Terms and Conditions', area: 'site', view: SITE_VIEW },
  privacy: { path: '/privacy-policy', title: 'Privacy Policy', area: 'site', view: SITE_VIEW },
  accessibility: { path: '/accessibility', title: 'Accessibility statement', area: 'site', view: SITE_VIEW },
  login: { path: '/login', title: 'Sign in to your corporate account', hideNavbar: true, area: 'account', view: ACCOUNT_VIEW },
  bookings: { path: '/bookings', title: 'Your bookings', hideNavbar: true, area: 'account', signedIn: true, view: ACCOUNT_VIEW },
  myAccount: { path: '/my-account', title: 'My account', hideNavbar: true, area: 'account', signedIn: true, view: ACCOUNT_VIEW },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;
export type AccountRoute = { [K in RouteName]: (typeof ROUTES)[K]['area'] extends 'account' ? K : never }[RouteName];
export type SiteRoute = { [K in RouteName]: (typeof ROUTES)[K]['area'] extends 'site' ? K : never }[RouteName];

/** A location as the browser has it: the path and the query string ('' or '?...'). */
export interface Location { path: string; search: string }

const NAMES = Object.keys(ROUTES) as RouteName[];
const pathsOf = (name: RouteName): readonly string[] => {
  const r: Route = ROUTES[name];
  return [r.path, ...(r.aliases ?? [])];
};

/** The screen a path names (paths are matched without case, as the original site did); null for any other path. */
export function routeOfPath(path: string): RouteName | null {
  const p = path.toLowerCase();
  return NAMES.find((n) => pathsOf(n).some((x) => x.toLowerCase() === p)) ?? null;
}

export const pathOfRoute = (name: RouteName): string => ROUTES[name].path;
/** The lazily loaded module the path opens (Route.view), or null for the home page and unknown paths. */
export function viewOfPath(path: string): string | null {
  const name = routeOfPath(path);
  const r: Route | null = name ? ROUTES[name] : null;
  return r?.view ?? null;
}
export const areaOfPath = (path: string): Area => ROUTES[routeOfPath(path) ?? 'home'].area;
export const needsSignIn = (name: RouteName): boolean => 'signedIn' in ROUTES[name] && ROUTES[name].signedIn === true;
export const hidesNavbar = (path: string): boolean => {
  const name = routeOfPath(path);
  return name !== null && 'hideNavbar' in ROUTES[name] && ROUTES[name].hideNavbar === true;
};

/** SPEC 2 'Step indicator': the step of a path (the card page counts as payment); any other path is step 0. */
export function stepIndexOfPath(path: string): number {
  const name = routeOfPath(path);
  const r: Route | null = name ? ROUTES[name] : null;
  return r?.step ?? 0;
}

export const urlOf = (l: Location): string => l.path + l.search;

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

/** The browser's title for a path: what the page is for, then the operator ('Choose a vehicle | Albion Executive Cars'). */
export function pageTitle(path: string, company: string | undefined): string {
  const title = ROUTES[routeOfPath(path) ?? 'home'].title;
  return company?.trim() ? `${title} | ${company.trim()}` : title;
}
