// SPEC 1 and 2 'Layout': the footer (when SHOW_FOOTER_PAGE is enable): a
// description, the operators (fetch_companies), how to reach the company, the
// terms, privacy and accessibility pages, and the copyright line. A lazy chunk:
// it is below the fold.
import { useEffect, useState } from 'react';
import { useSettings } from '../appActor';
import { fetchCompanyNames } from '../siteApi';
import { RouteLink } from './RouteLink';
import { telHref } from './SiteBar';
import './footer.css';

/** SPEC 1: the copyright line carries the year 2024. */
export const COPYRIGHT_YEAR = 2024;

export function SiteFooter() {
  const settings = useSettings();
  const [operators, setOperators] = useState<string[]>([]);
  useEffect(() => { fetchCompanyNames().then(setOperators); }, []);
  const name = settings.Company_Name || 'Taxi and chauffeur booking';
  const phone = settings.Company_Contact_Info;
  const email = settings.Company_Email;
  const address = settings.Company_Address;
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about">{name}</h2>
          <p>
            Airport transfers, station pickups and chauffeur cars across the UK, at fixed prices agreed before you travel.
            Every journey is carried out by a licensed operator; at airports your driver meets you in arrivals and tracks your flight.
          </p>
        </section>
        {operators.length > 0 && (
          <section aria-labelledby="footer-operators">
            <h2 id="footer-operators">Operators</h2>
            <ul>{operators.map((o) => <li key={o}>{o}</li>)}</ul>
          </section>
        )}
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">Contact</h2>
          <address>
            {phone && <span>Phone: <a href={telHref(phone)}>{phone}</a></span>}
            {email && <span>E-mail: <a href={`mailto:${email}`}>{email}</a></span>}
            {address && <span>{address}</span>}
          </address>
        </section>
      </div>
      <div className="site-footer-legal">
        <p>© {COPYRIGHT_YEAR} {name}. All rights reserved.</p>
        <nav aria-label="Legal">
          <ul>
            <li><RouteLink to="terms">Terms and Conditions</RouteLink></li>
            <li><RouteLink to="privacy">Privacy Policy</RouteLink></li>
            <li><RouteLink to="accessibility">Accessibility</RouteLink></li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
