// SPEC 2 'Previous/Next control'.
import { Link } from 'wouter';
import { showsNext } from '../../../machines/bookingSteps';

export function PrevNext({ previous = '/', next, nextLabel = 'Next step' }: { previous?: string; next: string; nextLabel?: string }) {
  return (
    <nav className="prev-next" aria-label="Previous and next step">
      <Link href={previous} className="btn btn-secondary">Previous</Link>
      {showsNext(next) && <Link href={next} className="btn btn-primary">{nextLabel}</Link>}
    </nav>
  );
}
