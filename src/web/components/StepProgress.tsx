const STEPS = ['Vehicle', 'Details', 'Payment'] as const;

/** SPEC 2: the progress bar of the quotation, details and payment steps. */
export function StepProgress({ current }: { current: 0 | 1 | 2 }) {
  return (
    <nav aria-label="Booking progress">
      <ol className="progress">
        {STEPS.map((label, i) => (
          <li key={label} className={i < current ? 'done' : i === current ? 'current' : ''} aria-current={i === current ? 'step' : undefined}>
            <span className="progress-dot" aria-hidden="true">{i < current ? '✓' : i + 1}</span>
            <span>{label}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
