// The pages around the wizard (the app machine's `site` state): one lazy chunk.
import { screenOfPath, type SiteScreen } from '../../../domain/screens';
import { useMachineLocation } from '../../appActor';
import { ContactView } from './ContactView';
import { FleetView } from './FleetView';
import { TextPage } from './TextPage';
import './site.css';

export function SiteArea() {
  const location = useMachineLocation();
  const route = (location ? screenOfPath(location.path) : null) as SiteScreen | null;
  return (
    <main id="main" className="main">
      {route === 'contact' && <ContactView />}
      {route === 'fleet' && <FleetView />}
      {(route === 'terms' || route === 'privacy' || route === 'accessibility') && <TextPage slug={route} />}
    </main>
  );
}
