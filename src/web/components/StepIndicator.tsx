// SPEC 2 'Step indicator': the step comes from the path; clicking a step asks
// the machine for that path, and its guards decide where the visitor lands.
import { Link, useLocation } from 'wouter';
import { stepIndexOfPath } from '../../../machines/bookingSteps';

const STEPS = [
  { label: 'Location', path: '/' },
  { label: 'Vehicle', path: '/quotationview' },
  { label: 'Details', path: '/personalDetailView' },
  { label: 'Payment', path: '/paymentview' },
] as const;

export function StepIndicator() {
  const [location] = useLocation();
  const current = stepIndexOfPath(location);
  return (
    <nav aria-label="Booking steps">
      <ol className="progress">
        {STEPS.map((s, i) => (
          <li key={s.label} className={i < current ? 'done' : i === current ? 'current' : ''}>
            <Link href={s.path} aria-current={i === current ? 'step' : undefined}>
              <span className="progress-dot" aria-hidden="true">{i < current ? '✓' : i + 1}</span>
              <span>{s.label}</span>
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
