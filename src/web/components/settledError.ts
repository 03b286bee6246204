// Nothing moves under the pointer (WCAG 2.2, issue 10): a field's error that
// appears because the field lost focus to a press elsewhere (the next field, a
// checkbox, Next) waits until that press is over. Shown at once, it would push
// the pressed control down between press and release, and the click would miss.
import { useLayoutEffect, useState } from 'react';

let pointerDown = false;
const onRelease = new Set<() => void>();

if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => { pointerDown = true; }, true);
  const release = () => {
    pointerDown = false;
    // After the click that this release makes: the click is dispatched in the same task as the release.
    setTimeout(() => { for (const run of [...onRelease]) run(); onRelease.clear(); }, 0);
  };
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
}

/** The error to show now: `error`, held back while a press that made it appear is still going on. */
export function useSettledError(error: string | undefined): string | undefined {
  const [held, setHeld] = useState(false);
  // A layout effect, so the held-back state is what the browser lays out (and hit-tests) before the release.
  useLayoutEffect(() => {
    if (error && pointerDown) {
      setHeld(true);
      const show = () => setHeld(false);
      onRelease.add(show);
      return () => { onRelease.delete(show); };
    }
    setHeld(false);
  }, [error]);
  return held ? undefined : error;
}
