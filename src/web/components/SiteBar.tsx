import { RouteLink } from './RouteLink';
import { AppActor, useSettings } from '../appActor';
import { isEnabled } from '../../domain/settings';

export function SiteBar() {
  const settings = useSettings();
  const signedIn = AppActor.useSelector((s) => s.context.session !== null);
  const name = settings.Company_Name || 'Taxi and chauffeur booking';
  const phone = settings.Company_Contact_Info;
  return (
    <header className="sitebar">
      <div className="sitebar-inner">
        <RouteLink to="home" className="brand" aria-label={`${name}, home`}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#e0a526" /><path d="M7 19l2-6a3 3 0 013-2h8a3 3 0 013 2l2 6v4H7z" fill="#0f2a47" /></svg>
          <span className="brand-name">{name}</span>
        </RouteLink>
        <div className="sitebar-end">
          {phone && (
            <a className="sitebar-phone" href={`tel:${phone.replace(/\s+/g, '')}`}>
              <svg className="sitebar-phone-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6.6 10.8a15 15 0 006.6 6.6l2.2-2.2a1 1 0 011-.25 11.4 11.4 0 003.6.57 1 1 0 011 1V20a1 1 0 01-1 1A17 17 0 013 4a1 1 0 011-1h3.5a1 1 0 011 1c0 1.25.2 2.45.57 3.57a1 1 0 01-.25 1z" fill="currentColor" /></svg>
              <span className="sitebar-phone-label">24/7 bookings</span> <span className="sitebar-phone-number">{phone}</span>
            </a>
          )}
          {/* SPEC 2: in the menu only when CORPORATE_LOGIN is enable; a signed-in passenger goes straight to the bookings. */}
          {isEnabled(settings, 'CORPORATE_LOGIN') && (
            <RouteLink to={signedIn ? 'bookings' : 'login'} className="sitebar-link">
              <span className="sitebar-link-first">Corporate </span>Account
            </RouteLink>
          )}
        </div>
      </div>
    </header>
  );
}
