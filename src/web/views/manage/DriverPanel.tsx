// The passenger's driver on their booking's page (issue 41 §3): who is coming in which car, where the job stands, and
// while the driver is on the way how far the car is from the pickup and how long it should take, as the page hears it
// live (machines/manage.ts `job.live`). The words are announced politely as they change.
import { lazy, Suspense } from 'react';
import { formatPhone } from '../../../domain/phone';
import { useSettings } from '../../appActor';
import { MAP_SETTINGS, tileUrlProblem, type LiveJob } from '../../../domain/tracking';
import type { ManagePage } from '../../../../machines/manage';
import { telHref } from '../../components/SiteBar';
import { Rows, Section } from './manageParts';

/** Leaflet and its styles, fetched only when a map is shown. */
const CarMap = lazy(() => import('./CarMap'));

const clock = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'Europe/London' });

export function DriverPanel({ manage }: { manage: ManagePage['manage'] }) {
  const settings = useSettings();
  const tiles = settings[MAP_SETTINGS.url]?.trim() ?? '';
  const job: LiveJob | null = manage.job ?? null;
  const driver = manage.driver;
  if (!driver && !job?.words) return null;
  const car = job?.car ?? null;
  const live = job?.status && job.words && (
    <div className={`manage-live manage-live-${job.status}`}>
      <p className="manage-live-words"><strong>{job.words}</strong></p>
      {car?.approach && <p className="manage-live-distance">{car.approach.words}</p>}
      {car && <p className="manage-live-when">Car’s position at {clock(car.at)}</p>}

      {job.status === 'on_way' && !car && <p className="manage-live-when">The car’s distance shows here once the driver’s phone shares it.</p>}
    </div>
  );
  return (
    <Section id="driver-title" title="Your driver">
      <div aria-live="polite" aria-atomic="true">{live}</div>
      {/* Outside the live words: the map's credit is not read out at each new position. */}
      {car && tiles && !tileUrlProblem(tiles) && (
        <Suspense fallback={null}>
          <CarMap car={car} pickup={car.pickup ?? null} tiles={tiles} credit={settings[MAP_SETTINGS.attribution]?.trim() ?? ''} />
        </Suspense>
      )}
      {driver && (
        <>
          <Rows rows={[
            { label: 'Driver', value: driver.name }, { label: 'Mobile', value: formatPhone(driver.mobile) || driver.mobile },
            { label: 'Car', value: driver.colour ? `${driver.colour} ${driver.vehicle}` : driver.vehicle }, { label: 'Registration', value: driver.registration },
          ]} />
          <p><a className="btn btn-secondary" href={telHref(driver.mobile)}>Call your driver</a></p>
        </>
      )}
    </Section>
  );
}
