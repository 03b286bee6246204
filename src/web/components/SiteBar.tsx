import { Link } from 'wouter';
import { useSettings } from '../bookingActor';

export function SiteBar() {
  const settings = useSettings();
  const name = settings.Company_Name || 'Taxi and chauffeur booking';
  const phone = settings.Company_Contact_Info;
  return (
    <header className="sitebar">
      <div className="sitebar-inner">
        <Link href="/" className="brand" aria-label={`${name}, home`}>
          <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#e0a526" /><path d="M7 19l2-6a3 3 0 013-2h8a3 3 0 013 2l2 6v4H7z" fill="#0f2a47" /></svg>
          <span className="brand-name">{name}</span>
        </Link>
        {phone && (
          <a className="sitebar-phone" href={`tel:${phone.replace(/\s+/g, '')}`}>
            <span className="sitebar-phone-label">24/7 bookings</span> {phone}
          </a>
        )}
      </div>
    </header>
  );
}
