import { lazy, Suspense, useEffect } from 'react';
import { currentStep } from '../../machines/booking';
import { hidesNavbar } from '../../machines/routes';
import { BookingActor, useArea, useMachineLocation, useSettings } from './appActor';
import { UrlSync } from './UrlSync';
import { LoadingOverlay } from './components/LoadingOverlay';
import { SiteBar } from './components/SiteBar';
import { HomeView } from './views/home/HomeView';
import { loadGoogleMaps } from './maps';
import { usePreloaded } from './hooks';
import { isEnabled } from '../domain/settings';

// Later steps and the account area load when first needed, to keep the first page small.
const QuotationView = lazy(() => import('./views/quotation/QuotationView').then((m) => ({ default: m.QuotationView })));
const DetailsView = lazy(() => import('./views/details/DetailsView').then((m) => ({ default: m.DetailsView })));
const PaymentView = lazy(() => import('./views/payment/PaymentView').then((m) => ({ default: m.PaymentView })));
const CardView = lazy(() => import('./views/card/CardView').then((m) => ({ default: m.CardView })));
const SuccessView = lazy(() => import('./views/success/SuccessView').then((m) => ({ default: m.SuccessView })));
const ForgotPasswordView = lazy(() => import('./views/forgot/ForgotPasswordView').then((m) => ({ default: m.ForgotPasswordView })));
const QuoteView = lazy(() => import('./views/quote/QuoteView').then((m) => ({ default: m.QuoteView })));
const CheckoutView = lazy(() => import('./views/checkout/CheckoutView').then((m) => ({ default: m.CheckoutView })));
const SiteArea = lazy(() => import('./views/site/SiteArea').then((m) => ({ default: m.SiteArea })));
// Below the fold on every page.
const SiteFooter = lazy(() => import('./components/SiteFooter').then((m) => ({ default: m.SiteFooter })));
const AccountArea = lazy(() => import('./views/account/AccountArea').then((m) => ({ default: m.AccountArea })));

const loading = <LoadingOverlay text="Please wait while loading content" />;

export function App() {
  const area = useArea();
  const location = useMachineLocation();
  const settings = useSettings();
  const company = settings.Company_Name;

  // SPEC 4: the maps script is added once the settings have arrived, and only with a key.
  const mapsKey = settings.GOOGLE_API_KEY?.trim();
  useEffect(() => {
    if (area !== null && mapsKey) loadGoogleMaps(mapsKey);
  }, [area !== null, mapsKey]);

  useEffect(() => {
    if (company) document.title = `${company} | Taxi and chauffeur booking with instant quotes`;
  }, [company]);

  if (area === null || location === null) return loading;
  return (
    <>
      <UrlSync />
      {/* SPEC 2 'Layout': the header with SHOW_NAVBAR_PAGE, unless the route hides it; the footer with SHOW_FOOTER_PAGE. */}
      {isEnabled(settings, 'SHOW_NAVBAR_PAGE') && !hidesNavbar(location.path) && <SiteBar />}
      <Suspense fallback={loading}>
        {area === 'account' ? <AccountArea /> : area === 'site' ? <SiteArea /> : <Wizard />}
      </Suspense>
      {isEnabled(settings, 'SHOW_FOOTER_PAGE') && area !== 'account' && <Suspense fallback={null}><SiteFooter /></Suspense>}
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
        </Suspense>
      </main>
      {urgent && UrgentNotice && <UrgentNotice onClose={() => actor.send({ type: 'error.dismissed' })} />}
    </>
  );
}
