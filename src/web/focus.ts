// Where focus goes when the page changes under a person (WCAG 2.4.3).

let lastFocused: HTMLElement | null = null;

/**
 * The control a dialog should hand focus back to: the focused one, or the one focused last when focus has fallen to
 * the page (a button that disables itself while its call runs loses focus, then opens the answer's dialog).
 */
export function focusOwner(): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) return active;
  return lastFocused?.isConnected ? lastFocused : null;
}

/** The heading of the page on screen, made focusable; it takes focus when the step changes (./StepFocus). */
export function pageHeading(): HTMLElement | null {
  const h = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (h && !h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
  return h;
}

/** The first field a form marks invalid, in reading order. */
export function firstInvalidField(scope: ParentNode | null | undefined): HTMLElement | null {
  return scope?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? null;
}

/**
 * Installed once for the page: remembers the last focused control (focusOwner), and, on every form of the site,
 * after a submit the form refused, focus goes to its first invalid field once the errors
 * are on screen (final-form marks every field touched on submit; React shows the errors before the next frame).
 * While a validation alert is open the page behind it is inert, so nothing moves; the alert hands focus to the
 * same field when it closes (Dialog's `returnFocus`).
 */
export function installFocusHelpers(root: Document = document): () => void {
  const onFocus = (e: FocusEvent) => { if (e.target instanceof HTMLElement) lastFocused = e.target; };
  root.addEventListener('focusin', onFocus);
  const onSubmit = (e: Event) => {
    const form = e.target instanceof HTMLFormElement ? e.target : null;
    requestAnimationFrame(() => { if (form?.isConnected) firstInvalidField(form)?.focus(); });
  };
  root.addEventListener('submit', onSubmit, true);
  return () => { root.removeEventListener('submit', onSubmit, true); root.removeEventListener('focusin', onFocus); };
}
