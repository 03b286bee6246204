// SPEC 2 'Previous/Next control', for the screen on show: where it leads comes from the screen catalogue.
import { currentStep } from '../../../machines/bookingLocation';
import { prevNextOf } from '../../domain/screens';
import { BookingActor } from '../bookingActor';
import { RouteLink } from './RouteLink';
export function PrevNext({ nextLabel = 'Next step' }: { nextLabel?: string }) {
  const screen = BookingActor.useSelector(currentStep);
  const links = screen && prevNextOf(screen);
  if (!links) return null;
  return (
    <nav className="prev-next" aria-label="Previous and next step">
      <RouteLink to={links.previous} className="btn btn-secondary">Previous</RouteLink>
      {links.next && <RouteLink to={links.next} className="btn btn-primary">{nextLabel}</RouteLink>}
    </nav>
  );
}
