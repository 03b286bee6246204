// SPEC 2 'Home view': what is below the form (a lazy chunk): the services panel,
// then the optional sections, each behind its setting.
import { useEffect, useState } from 'react';
import type { FleetVehicle } from '../../../domain/schemas';
import { isEnabled } from '../../../domain/settings';
import { useSettings } from '../../bookingActor';
import { fetchFleet } from '../../bookingApi';
import { ServicesPanel } from './ServicesPanel';
import '../../screens.css';

export const POPULAR_LOCATIONS = [
  'Heathrow Airport Terminal 5, Hounslow TW6 2GA',
  'Gatwick Airport North Terminal, Crawley RH6 0PJ',
  'London Stansted Airport, Stansted CM24 1RW',
  'London City Airport, Hartmann Road, London E16 2PX',
  "King's Cross Station, Euston Road, London N1C 4AP",
  'Southampton Ocean Cruise Terminal, Southampton SO14 3QN',
];

function FleetSection() {
  const [fleet, setFleet] = useState<FleetVehicle[]>([]);
  useEffect(() => { fetchFleet().then(setFleet); }, []);
  if (!fleet.length) return null;
  return (
    <section className="section" aria-labelledby="fleet-title">
      <h2 id="fleet-title">Our fleet</h2>
      <ul className="fleet-grid">
        {fleet.map((v) => (
          <li key={v.tbms_vid} className="fleet-card">
            <img src={v.vehicle_img} alt="" width={160} height={86} loading="lazy" />
            <h3>{v.category_name}</h3>
            <p className="muted">Up to {v.seats} passengers · {v.luggage} large cases · {v.hand_luggage} hand luggage</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ContactSection() {
  const s = useSettings();
  return (
    <section className="section contact-section" aria-labelledby="contact-title">
      <h2 id="contact-title">Talk to us</h2>
      <dl className="contact-list">
        {s.Company_Contact_Info && <div><dt>Phone</dt><dd><a href={`tel:${s.Company_Contact_Info.replace(/\s+/g, '')}`}>{s.Company_Contact_Info}</a></dd></div>}
        {(s.Company_Email || s.FROM_EMAIL) && <div><dt>Email</dt><dd><a href={`mailto:${s.Company_Email || s.FROM_EMAIL}`}>{s.Company_Email || s.FROM_EMAIL}</a></dd></div>}
        {s.Company_Address && <div><dt>Address</dt><dd>{s.Company_Address}</dd></div>}
      </dl>
    </section>
  );
}

function PopularSection({ onChoose }: { onChoose: (address: string) => void }) {
  return (
    <section className="section" aria-labelledby="popular-title">
      <h2 id="popular-title">Popular locations</h2>
      <ul className="popular-list">
        {POPULAR_LOCATIONS.map((a) => (
          <li key={a}><button type="button" className="chip" onClick={() => onChoose(a)}>{a.split(',')[0]}</button></li>
        ))}
      </ul>
    </section>
  );
}

export function HomeSections({ onChooseDestination }: { onChooseDestination: (address: string) => void }) {
  const s = useSettings();
  return (
    <>
      <ServicesPanel />
      <div className="sections">
        {isEnabled(s, 'SHOW_COMPANY_FLEET_VIEW_SECTION') && <FleetSection />}
        {isEnabled(s, 'SHOW_POPULAR_LOCATION_PAGE') && <PopularSection onChoose={onChooseDestination} />}
        {isEnabled(s, 'SHOW_COMPANY_CONTACT_SECTION') && <ContactSection />}
      </div>
    </>
  );
}
