// SPEC 2 'Layout': the header. Logo (to /), company name, contact number, and
// the menu: Urgent Booking, Our Fleet, Contact Us (always), Corporate Account,
// each behind its setting. At 768 px and below the menu is a side menu behind a
// hamburger: a modal <dialog> (focus moves into it and stays there; Escape, a
// link or the backdrop closes it, and focus returns to the hamburger).
import { useEffect, useRef, useState } from 'react';
import { RouteLink } from './RouteLink';
import { AppActor, useSettings } from '../appActor';
import { isEnabled, type Settings } from '../../domain/settings';
import type { ScreenName } from '../../domain/screens';

interface MenuItem { to: ScreenName; label: string }

/** SPEC 2: which menu entries show; a signed-in passenger's Corporate Account goes straight to the bookings. */
export function menuItems(settings: Settings, signedIn: boolean): MenuItem[] {
  const items: MenuItem[] = [];
  if (isEnabled(settings, 'NAVBAR_URGENT_BOOKING_PAGE')) items.push({ to: 'quote', label: 'Urgent Booking' });
  if (isEnabled(settings, 'NAVBAR_OUR_FLEET_PAGE')) items.push({ to: 'fleet', label: 'Our Fleet' });
  items.push({ to: 'contact', label: 'Contact Us' });
  if (isEnabled(settings, 'CORPORATE_LOGIN')) items.push({ to: signedIn ? 'bookings' : 'login', label: 'Corporate Account' });
  return items;
}

export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

export function SiteBar() {
  const settings = useSettings();
  const signedIn = AppActor.useSelector((s) => s.context.session !== null);
  const name = settings.Company_Name || 'Taxi and chauffeur booking';
  const phone = settings.Company_Contact_Info;
  const items = menuItems(settings, signedIn);
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDialogElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const d = menu.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      d.querySelector<HTMLElement>('a')?.focus();
    } else if (!open && d.open) {
      d.close();
    }
  }, [open]);

  const links = (onPick?: () => void) => (
    <ul className="menu-list">
      {items.map((i) => (
        <li key={i.to}><RouteLink to={i.to} className="menu-link" onClick={onPick}>{i.label}</RouteLink></li>
      ))}
    </ul>
  );

  return (
    <header className="sitebar">
      <div className="sitebar-inner">
        <RouteLink to="home" className="brand" aria-label={`${name}, home`}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#e0a526" /><path d="M7 19l2-6a3 3 0 013-2h8a3 3 0 013 2l2 6v4H7z" fill="#0f2a47" /></svg>
          <span className="brand-name">{name}</span>
        </RouteLink>
        <nav className="menu-inline" aria-label="Main">{links()}</nav>
        <div className="sitebar-end">
          {phone && (
            <a className="sitebar-phone" href={telHref(phone)}>
              <svg className="sitebar-phone-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6.6 10.8a15 15 0 006.6 6.6l2.2-2.2a1 1 0 011-.25 11.4 11.4 0 003.6.57 1 1 0 011 1V20a1 1 0 01-1 1A17 17 0 013 4a1 1 0 011-1h3.5a1 1 0 011 1c0 1.25.2 2.45.57 3.57a1 1 0 01-.25 1z" fill="currentColor" /></svg>
              <span className="sitebar-phone-label">24/7 bookings</span> <span className="sitebar-phone-number">{phone}</span>
            </a>
          )}
          <button ref={toggle} type="button" className="menu-toggle" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
            <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
            <span className="sr-only">Menu</span>
          </button>
        </div>
      </div>
      <dialog
        ref={menu}
        className="side-menu"
        aria-label="Menu"
        onClose={() => { setOpen(false); toggle.current?.focus(); }}
        onClick={(e) => { if (e.target === e.currentTarget) setOpen(false); }}
      >
        <div className="side-menu-panel">
          <div className="side-menu-head">
            <span className="side-menu-title">{name}</span>
            <button type="button" className="side-menu-close" onClick={() => setOpen(false)}>
              <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
              <span className="sr-only">Close menu</span>
            </button>
          </div>
          <nav aria-label="Main">{links(() => setOpen(false))}</nav>
          {phone && <a className="side-menu-phone" href={telHref(phone)}>Call {phone}</a>}
        </div>
      </dialog>
    </header>
  );
}
