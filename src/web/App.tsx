import { lazy, Suspense, useEffect } from 'react';
import type { Step } from '../../machines/booking';
import { currentStep } from '../../machines/bookingLocation';
import { areaOfScreen, hidesNavbar, screenOfPath, type ScreenName } from '../domain/screens';
import { BookingActor, useArea, useMachineLocation, useSettings } from './appActor';
import { UrlSync } from './UrlSync';
import { StepFocus } from './StepFocus';
import { LoadingOverlay } from './components/LoadingOverlay';
import { LoadFailure } from './components/LoadFailure';
import { SiteBar } from './components/SiteBar';
import { HomeView } from './views/home/HomeView';
import { loadGoogleMaps } from './maps';
import { afterFirstPaint, useAfterFirstPaint, useContentShown, usePreloaded } from './hooks';
import { VIEWS, viewFor } from './views';
import { isEnabled } from '../domain/settings';

const { SiteArea, AccountArea, OperatorArea, ManageArea, DriverArea } = VIEWS;

/**
 * Where each step can lead, two steps ahead on the way to the confirmation: fetched while the person is still on the
 * step, so the next one shows at once instead of the loading screen.
 */
const NEXT_STEPS: Partial<Record<Step, ScreenName[]>> = {
  home: ['quotation', 'quote', 'details'],
  quotation: ['details', 'quote', 'payment'],
  details: ['payment', 'forgotPassword', 'success', 'card'],
  forgotPassword: ['details', 'payment'],
  payment: ['card', 'checkout', 'success'],
  checkout: ['card', 'success'],
  card: ['success'],
  quote: ['quotation', 'details'],
};
/**
 * The view a typed or reloaded wizard address opens, fetched as the app starts (main.tsx), beside its first render
 * rather than after it: /quotationview's chunk no longer waits for the main script to run first (decision 30).
 */
export function preloadFirstView(path: string): void {
  const screen = screenOfPath(path);
  if (screen && areaOfScreen(screen) === 'wizard') void viewFor(screen)?.preload();
}

// Below the fold on every page.
const SiteFooter = lazy(() => import('./components/SiteFooter').then((m) => ({ default: m.SiteFooter })));

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
          {area === 'account' ? <AccountArea /> : area === 'site' ? <SiteArea /> : area === 'operator' ? <OperatorArea />
            : area === 'manage' ? <ManageArea /> : area === 'driver' ? <DriverArea /> : <Wizard />}
          {area !== 'wizard' && <ContentShown />}
        </Suspense>
      </LoadFailure>
      {/* The office's console and a driver's page are work tools, not pages of the site: no footer. */}
      {belowFold && isEnabled(settings, 'SHOW_FOOTER_PAGE') && area !== 'account' && area !== 'operator' && area !== 'driver' && <LoadFailure quiet><Suspense fallback={null}><SiteFooter /></Suspense></LoadFailure>}
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
          {step === 'home' ? <HomeView /> : step && <StepView step={step} />}
          {step && <StepShown step={step} />}
        </Suspense>
      </main>
      {urgent && UrgentNotice && <UrgentNotice onClose={() => actor.send({ type: 'error.dismissed' })} />}
    </>
  );
}

/** A step's view, as the screen catalogue names it. */
function StepView({ step }: { step: Step }) {
  const View = viewFor(step);
  return View && <View />;
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
    void afterFirstPaint().then(() => NEXT_STEPS[step]?.forEach((screen) => viewFor(screen)?.preload()));
  }, [step]);
  return null;
}
