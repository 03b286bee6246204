// SPEC 2 'Step indicator': the steps and the step of the path come from the screen catalogue; clicking a step asks
// the machine for that screen, and its guards decide where the visitor lands.
import { useLocation } from 'wouter';
import { STEPS, stepOfPath } from '../../domain/screens';
import { RouteLink } from './RouteLink';
export function StepIndicator() {
  const [location] = useLocation();
  const current = stepOfPath(location);
  return (
    <nav aria-label="Booking steps">
      <ol className="progress">
        {STEPS.map((s, i) => (
          <li key={s.label} className={i < current ? 'done' : i === current ? 'current' : ''}>
            <RouteLink to={s.screen} aria-current={i === current ? 'step' : undefined}>
              <span className="progress-dot" aria-hidden="true">{i < current ? '✓' : i + 1}</span>
              <span>{s.label}</span>
            </RouteLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}
