import { lazy, Suspense, useEffect } from 'react';
import { currentStep } from '../../machines/booking';
import { hidesNavbar } from '../../machines/routes';
import { BookingActor, useArea, useMachineLocation, useSettings } from './appActor';
import { UrlSync } from './UrlSync';
import { LoadingOverlay } from './components/LoadingOverlay';
import { SiteBar } from './components/SiteBar';
import { HomeView } from './views/home/HomeView';
import { loadGoogleMaps } from './maps';

// Later steps and the account area load when first needed, to keep the first page small.
const QuotationView = lazy(() => import('./views/quotation/QuotationView').then((m) => ({ default: m.QuotationView })));
const DetailsView = lazy(() => import('./views/details/DetailsView').then((m) => ({ default: m.DetailsView })));
const PaymentView = lazy(() => import('./views/payment/PaymentView').then((m) => ({ default: m.PaymentView })));
const CardView = lazy(() => import('./views/card/CardView').then((m) => ({ default: m.CardView })));
const SuccessView = lazy(() => import('./views/success/SuccessView').then((m) => ({ default: m.SuccessView })));
const ForgotPasswordView = lazy(() => import('./views/forgot/ForgotPasswordView').then((m) => ({ default: m.ForgotPasswordView })));
const QuoteView = lazy(() => import('./views/quote/QuoteView').then((m) => ({ default: m.QuoteView })));
// The notice shows over the quotation form it redirects to, so it loads with it.
const UrgentNotice = lazy(() => import('./components/UrgentNotice').then((m) => ({ default: m.UrgentNotice })));
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
      {!hidesNavbar(location.path) && <SiteBar />}
      <Suspense fallback={loading}>
        {area === 'account' ? <AccountArea /> : <Wizard />}
      </Suspense>
    </>
  );
}

function Wizard() {
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
          {step === 'card' && <CardView />}
          {step === 'success' && <SuccessView />}
          {step === 'quote' && <QuoteView />}
          {step === 'forgotPassword' && <ForgotPasswordView />}
        </Suspense>
      </main>
      {urgent && <Suspense fallback={null}><UrgentNotice onClose={() => actor.send({ type: 'error.dismissed' })} /></Suspense>}
    </>
  );
}
