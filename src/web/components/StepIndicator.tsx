// SPEC 2 'Step indicator': the step comes from the path; clicking a step asks
// the machine for that path, and its guards decide where the visitor lands.
import { useLocation } from 'wouter';
import { stepIndexOfPath } from '../../../machines/routes';
import { RouteLink } from './RouteLink';

const STEPS = [
  { label: 'Location', to: 'home' },
  { label: 'Vehicle', to: 'quotation' },
  { label: 'Details', to: 'details' },
  { label: 'Payment', to: 'payment' },
] as const;

export function StepIndicator() {
  const [location] = useLocation();
  const current = stepIndexOfPath(location);
  return (
    <nav aria-label="Booking steps">
      <ol className="progress">
        {STEPS.map((s, i) => (
          <li key={s.label} className={i < current ? 'done' : i === current ? 'current' : ''}>
            <RouteLink to={s.to} aria-current={i === current ? 'step' : undefined}>
              <span className="progress-dot" aria-hidden="true">{i < current ? '✓' : i + 1}</span>
              <span>{s.label}</span>
            </RouteLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}
