// A driver's page (issue 41 §2), a chunk of its own: a customer's page never loads it. Once loaded it hands the app
// machine its machine (machines/driver.ts, with the browser's services) to run as the app's `driver` child, then shows
// the screen that machine's state names. Phone-first: one column, large tap targets; installable while it is open
// (its web app manifest is linked from here, and only here).
import { useEffect } from 'react';
import { useSettings } from '../../appActor';
import { useLazyArea } from '../../areaActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { telHref } from '../../components/SiteBar';
import { driverScreen } from '../../../../machines/driver';
import { liveDriver } from './liveDriver';
import { DriverContext, useDriver, useDriverRef } from './driverActor';
import { SignInView } from './SignInView';
import { JobsView } from './JobsView';
import { JobView } from './JobView';
import './driver.css';
import '../../screens.css';

/** The page's web app manifest (public/storage, served as it is) and the colour of the phone's bar around it. */
export const DRIVER_MANIFEST = '/storage/driver.webmanifest';
const THEME_COLOUR = '#0f2a47';

export function DriverArea() {
  const ref = useLazyArea('driver', liveDriver);
  useInstallable();
  if (!ref) return <LoadingOverlay text="Opening your jobs" />;
  return (
    <DriverContext.Provider value={ref}>
      <DriverPage />
    </DriverContext.Provider>
  );
}

function DriverPage() {
  const screen = useDriver(driverScreen);
  const signedIn = useDriver((s) => s.context.driver !== null && !s.matches('signedOut'));
  if (screen === null) return <LoadingOverlay text="Opening your jobs" />;
  return (
    <div className="drv-shell">
      <DriverBar />
      <main id="main" className="drv-main">
        {!signedIn ? <SignInView /> : screen === 'driverJob' ? <JobView /> : <JobsView />}
      </main>
      <OfficeLine />
    </div>
  );
}

/** The office's number, on every screen: a tap calls it. */
function OfficeLine() {
  const phone = useSettings().Company_Contact_Info?.trim();
  if (!phone) return null;
  return (
    <footer className="drv-office">
      <p>Need the office? <a href={telHref(phone)}>Call {phone}</a></p>
    </footer>
  );
}

function DriverBar() {
  const actor = useDriverRef();
  const settings = useSettings();
  const driver = useDriver((s) => s.context.driver);
  const canSignOut = useDriver((s) => s.can({ type: 'session.signOut' }));
  const signingOut = useDriver((s) => s.matches('signingOut'));
  // Not while a step is being saved.
  const busy = useDriver((s) => s.hasTag('busy'));
  return (
    <header className="drv-bar">
      <div className="drv-bar-inner">
        <p className="drv-brand">
          <svg className="drv-brand-mark" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="6" fill="#e0a526" /><path d="M7 19l2-6a3 3 0 013-2h8a3 3 0 013 2l2 6v4H7z" fill="#0f2a47" /></svg>
          <span className="drv-brand-text">
            <span className="drv-brand-name">{driver?.company_name || settings.Company_Name || 'Driver jobs'}</span>
            <span className="drv-brand-sub">{driver ? driver.name : 'Drivers'}</span>
          </span>
        </p>
        {(canSignOut || signingOut) && (
          <button type="button" className="drv-signout" disabled={busy} onClick={() => actor.send({ type: 'session.signOut' })}>
            {signingOut ? 'Signing out...' : 'Sign out'}
          </button>
        )}
      </div>
    </header>
  );
}

/** Links the page's web app manifest and sets the phone's bar colour while the driver's page is open; puts both back after. */
function useInstallable() {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = DRIVER_MANIFEST;
    document.head.appendChild(link);
    let theme = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
    const before = theme?.content ?? null;
    if (!theme) {
      theme = document.createElement('meta');
      theme.name = 'theme-color';
      document.head.appendChild(theme);
    }
    theme.content = THEME_COLOUR;
    const meta = theme;
    return () => {
      link.remove();
      if (before === null) meta.remove();
      else meta.content = before;
    };
  }, []);
}
