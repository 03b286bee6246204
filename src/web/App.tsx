import { lazy, Suspense, useEffect } from 'react';
import { currentStep, type Step } from '../../machines/booking';
import { hidesNavbar, routeOfPath, type RouteName } from '../../machines/routes';
import { BookingActor, useArea, useMachineLocation, useSettings } from './appActor';
import { UrlSync } from './UrlSync';
import { StepFocus } from './StepFocus';
import { LoadingOverlay } from './components/LoadingOverlay';
import { LoadFailure } from './components/LoadFailure';
import { SiteBar } from './components/SiteBar';
import { HomeView } from './views/home/HomeView';
import { loadGoogleMaps } from './maps';
import { afterFirstPaint, useAfterFirstPaint, useContentShown, usePreloaded } from './hooks';
import { preloadable } from './preloadable';
import { isEnabled } from '../domain/settings';

// Later steps and the account area load when first needed, to keep the first page small.
const QuotationView = preloadable(() => import('./views/quotation/QuotationView'), (m) => m.QuotationView);
const DetailsView = preloadable(() => import('./views/details/DetailsView'), (m) => m.DetailsView);
const PaymentView = preloadable(() => import('./views/payment/PaymentView'), (m) => m.PaymentView);
const CardView = preloadable(() => import('./views/card/CardView'), (m) => m.CardView);
const SuccessView = preloadable(() => import('./views/success/SuccessView'), (m) => m.SuccessView);
const ForgotPasswordView = preloadable(() => import('./views/forgot/ForgotPasswordView'), (m) => m.ForgotPasswordView);
const QuoteView = preloadable(() => import('./views/quote/QuoteView'), (m) => m.QuoteView);
const CheckoutView = preloadable(() => import('./views/checkout/CheckoutView'), (m) => m.CheckoutView);
const SiteArea = lazy(() => import('./views/site/SiteArea').then((m) => ({ default: m.SiteArea })));

/**
 * Where each step can lead, two steps ahead on the way to the confirmation: fetched while the person is still on the
 * step, so the next one shows at once instead of the loading screen.
 */
const NEXT_STEPS: Partial<Record<Step, { preload: () => Promise<unknown> }[]>> = {
  home: [QuotationView, QuoteView, DetailsView],
  quotation: [DetailsView, QuoteView, PaymentView],
  details: [PaymentView, ForgotPasswordView, SuccessView, CardView],
  forgotPassword: [DetailsView, PaymentView],
  payment: [CardView, CheckoutView, SuccessView],
  checkout: [CardView, SuccessView],
  card: [SuccessView],
  quote: [QuotationView, DetailsView],
};
/**
 * The view a typed or reloaded address opens, fetched as the app starts (main.tsx), beside its first render rather
 * than after it: /quotationview's chunk no longer waits for the main script to run first (decision 30).
 */
const FIRST_VIEW: Partial<Record<RouteName, { preload: () => Promise<unknown> }>> = {
  quotation: QuotationView, details: DetailsView, payment: PaymentView, card: CardView, checkout: CheckoutView,
  success: SuccessView, quote: QuoteView, forgotPassword: ForgotPasswordView,
};
export function preloadFirstView(path: string): void {
  const route = routeOfPath(path);
  if (route) void FIRST_VIEW[route]?.preload();
}

// Below the fold on every page.
const SiteFooter = lazy(() => import('./components/SiteFooter').then((m) => ({ default: m.SiteFooter })));
const AccountArea = lazy(() => import('./views/account/AccountArea').then((m) => ({ default: m.AccountArea })));

const loading = <LoadingOverlay text="Please wait while loading content" />;

export function App() {
  const area = useArea();
  const location = useMachineLocation();
  const settings = useSettings();

  // SPEC 4: the maps script is added once the settings have arrived, and only with a key.
  const mapsKey = settings.GOOGLE_API_KEY?.trim();
  // The footer is below the fold: fetched after the first paint.
  const belowFold = useAfterFirstPaint();
  useEffect(() => {
    if (area !== null && mapsKey) loadGoogleMaps(mapsKey);
  }, [area !== null, mapsKey]);

  if (area === null || location === null) return loading;
  return (
    <>
      <UrlSync />
      <StepFocus />
      {/* SPEC 2 'Layout': the header with SHOW_NAVBAR_PAGE, unless the route hides it; the footer with SHOW_FOOTER_PAGE. */}
      {isEnabled(settings, 'SHOW_NAVBAR_PAGE') && !hidesNavbar(location.path) && <SiteBar />}
      {/* Moving on (Back, a link in the site bar) tries again. */}
      <LoadFailure retryKey={location.path}>
        <Suspense fallback={loading}>
          {area === 'account' ? <AccountArea /> : area === 'site' ? <SiteArea /> : <Wizard />}
          {area !== 'booking' && <ContentShown />}
        </Suspense>
      </LoadFailure>
      {belowFold && isEnabled(settings, 'SHOW_FOOTER_PAGE') && area !== 'account' && <LoadFailure quiet><Suspense fallback={null}><SiteFooter /></Suspense></LoadFailure>}
    </>
  );
}

const loadUrgentNotice = () => import('./components/UrgentNotice');

function Wizard() {
  // Fetched once the wizard is on screen. Not React.lazy: SPEC 8 times the notice from the moment the machine opens it.
  const UrgentNotice = usePreloaded(loadUrgentNotice)?.UrgentNotice;
  const step = BookingActor.useSelector(currentStep);
  const actor = BookingActor.useActorRef();
  // SPEC 8: one notice open across the move from the form to /quoteView.
  const urgent = BookingActor.useSelector((s) => s.matches({ home: 'urgent' }) || s.matches({ quote: 'notice' }));
  return (
    <>
      <main id="main" className="main">
        <Suspense fallback={loading}>
          {step === 'home' && <HomeView />}
          {step === 'quotation' && <QuotationView />}
          {step === 'details' && <DetailsView />}
          {step === 'payment' && <PaymentView />}
          {step === 'checkout' && <CheckoutView />}
          {step === 'card' && <CardView />}
          {step === 'success' && <SuccessView />}
          {step === 'quote' && <QuoteView />}
          {step === 'forgotPassword' && <ForgotPasswordView />}
          {step && <StepShown step={step} />}
        </Suspense>
      </main>
      {urgent && UrgentNotice && <UrgentNotice onClose={() => actor.send({ type: 'error.dismissed' })} />}
    </>
  );
}

/** Beside the area's content, inside its Suspense: commits only once that content can show (not its loading screen). */
function ContentShown() {
  useContentShown();
  return null;
}

/**
 * Beside the step's view, inside its Suspense, so it commits with the view rather than with the loading screen:
 * marks the page's content as shown, then fetches where the step can lead once it has been painted. Not on idle:
 * a quick person would beat an idle callback.
 */
function StepShown({ step }: { step: Step }) {
  useContentShown();
  useEffect(() => {
    void afterFirstPaint().then(() => NEXT_STEPS[step]?.forEach((view) => view.preload()));
  }, [step]);
  return null;
}
