// The corporate account area (SPEC 1, 2 'Login', 'Bookings (corporate)',
// 'Profile', 'Route guard'): /login alone, or the signed-in layout with its
// sidebar (Book Now, Bookings, Journeys, Invoices, My Account, Logout) around
// /bookings, issue 44's /bookings/journeys and /bookings/invoices, and
// /my-account. Which screen is on show is the account machine's
// (machines/accountLocation.ts, `accountScreen`); the views only send it events.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { accountScreen } from '../../../../machines/accountLocation';
import type { AccountScreen } from '../../../domain/screens';
import { AccountActor, useSettings } from '../../appActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { RouteLink } from '../../components/RouteLink';
import { BrandMark } from './BrandMark';
import { LoginView } from './LoginView';
import { BookingsView } from './BookingsView';
import { MyAccountView } from './MyAccountView';
import { JourneysView } from './JourneysView';
import { InvoicesView } from './InvoicesView';
import './account.css';

export function AccountArea() {
  const screen = AccountActor.useSelector(accountScreen);
  if (screen === null) return null;
  if (screen === 'login') {
    return (
      <main id="main" className="account-login">
        <LoginView />
      </main>
    );
  }
  return <SignedInLayout screen={screen} />;
}

type SignedInScreen = Exclude<AccountScreen, 'login'>;

// Issue 44: Journeys and Invoices are shown to every signed-in passenger; a passenger whose sign-in belongs to no
// company account is told on the Invoices page that invoices are for company accounts.
const LINKS: { to: SignedInScreen; label: string; icon: ReactNode }[] = [
  {
    to: 'bookings', label: 'Bookings',
    icon: <path d="M4 5h16v14H4zM4 9h16M8 3v4M16 3v4" />,
  },
  {
    to: 'journeys', label: 'Journeys',
    icon: <path d="M5 18a2 2 0 100-4 2 2 0 000 4zM19 10a2 2 0 100-4 2 2 0 000 4zM7 16h6a3 3 0 000-6h-2a3 3 0 010-6h6" />,
  },
  {
    to: 'invoices', label: 'Invoices',
    icon: <path d="M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7" />,
  },
  {
    to: 'myAccount', label: 'My Account',
    icon: <path d="M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0" />,
  },
];

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="account-nav-icon" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor"
      strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">{children}</svg>
  );
}

function SignedInLayout({ screen }: { screen: SignedInScreen }) {
  const actor = AccountActor.useActorRef();
  const settings = useSettings();
  const passenger = AccountActor.useSelector((s) => s.context.session?.passenger ?? null);
  const checking = AccountActor.useSelector((s) => s.matches('checking'));
  const loggingOut = AccountActor.useSelector((s) => s.matches('loggingOut'));
  const company = settings.Company_Name || 'Corporate travel';
  // At and below 768 px the sidebar collapses behind the Menu button (SPEC 2 'Route guard'); wider, it is always shown.
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const firstLink = useRef<HTMLAnchorElement>(null);
  const close = () => setOpen(false);

  useEffect(() => {
    if (!open) return undefined;
    firstLink.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        toggle.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const initials = (passenger?.passenger_name ?? '').split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');

  return (
    <div className={`account-shell${open ? ' menu-open' : ''}`}>
      <header className="account-topbar">
        <RouteLink to="home" className="account-brand" aria-label={`${company}, home`}>
          <BrandMark />
          <span className="account-brand-name">{company}</span>
        </RouteLink>
        <button ref={toggle} type="button" className="account-menu-toggle" aria-expanded={open} aria-controls="account-sidebar"
          onClick={() => setOpen((o) => !o)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          <span>Menu</span>
        </button>
      </header>
      {open && <div className="account-backdrop" aria-hidden="true" onClick={close} />}
      <aside id="account-sidebar" className="account-sidebar" aria-label="Corporate account">
        <RouteLink to="home" className="account-brand account-brand-side" aria-label={`${company}, home`} onClick={close}>
          <BrandMark />
          <span className="account-brand-name">{company}</span>
        </RouteLink>
        {passenger && (
          <div className="account-who">
            <span className="account-avatar" aria-hidden="true">{initials || '•'}</span>
            <span className="account-who-text">
              <span className="account-who-label">Signed in as</span>
              <strong className="account-who-name">{passenger.passenger_name}</strong>
              <span className="account-who-company">Corporate account, {company}</span>
            </span>
          </div>
        )}
        <nav aria-label="Account">
          <ul className="account-nav">
            <li>
              <RouteLink ref={firstLink} to="home" className="account-nav-link account-book-now" onClick={close}>
                <Icon><path d="M12 5v14M5 12h14" /></Icon>
                Book Now
              </RouteLink>
            </li>
            {LINKS.map((l) => (
              <li key={l.to}>
                <RouteLink to={l.to} className="account-nav-link" aria-current={screen === l.to ? 'page' : undefined} onClick={close}>
                  <Icon>{l.icon}</Icon>
                  {l.label}
                </RouteLink>
              </li>
            ))}
            <li>
              <button type="button" className="account-nav-link account-logout" disabled={loggingOut}
                onClick={() => { close(); actor.send({ type: 'logout' }); }}>
                <Icon><path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" /></Icon>
                {loggingOut ? 'Signing out...' : 'Logout'}
              </button>
            </li>
          </ul>
        </nav>
        {settings.Company_Contact_Info && (
          <p className="account-help">
            Need help with a booking? Call <a href={`tel:${settings.Company_Contact_Info.replace(/\s+/g, '')}`}>{settings.Company_Contact_Info}</a>
          </p>
        )}
      </aside>
      <main id="main" className="account-main">
        {!checking && screen === 'bookings' && <BookingsView />}
        {!checking && screen === 'journeys' && <JourneysView />}
        {!checking && screen === 'invoices' && <InvoicesView />}
        {!checking && screen === 'myAccount' && <MyAccountView />}
      </main>
      {checking && <LoadingOverlay text="Please wait while loading content" />}
      {loggingOut && <LoadingOverlay text="Signing you out" />}
    </div>
  );
}
