// What a person needs when the page changes under them (WCAG 2.4.2, 2.4.3):
// the title names the new page, the view starts at the top, and focus moves to
// the new page's heading, so a screen reader announces it and Tab continues from
// there. On the first page focus stays where the browser put it.
import { useEffect, useRef } from 'react';
import { pageTitle } from '../domain/screens';
import { useMachineLocation, useSettings } from './appActor';
import { pageHeading } from './focus';

export function StepFocus() {
  const path = useMachineLocation()?.path ?? null;
  const company = useSettings().Company_Name;
  // The path on screen: focus moves only when it changes, not when the first page opens (or mounts again in development).
  const shown = useRef<string | null>(null);

  useEffect(() => {
    if (path !== null) document.title = pageTitle(path, company);
  }, [path, company]);

  useEffect(() => {
    if (path === null || path === shown.current) return;
    const first = shown.current === null;
    shown.current = path;
    // The first page opens where the browser put it: a scroll now would force a layout before the first paint.
    if (first) return undefined;
    window.scrollTo({ top: 0 });
    return focusHeadingWhenShown();
  }, [path]);

  return null;
}

/**
 * Focus the page's heading once it is on screen: a lazily loaded step shows it a moment later, and an open modal
 * (the urgent notice across its move to /quoteView) keeps focus until it closes, when the dialog hands focus on.
 * Gives up when the person has moved focus themselves.
 */
function focusHeadingWhenShown(): () => void {
  const before = document.activeElement;
  const attempt = (): boolean => {
    const active = document.activeElement;
    if (active !== before && active !== document.body && active !== null) return true;
    const heading = pageHeading();
    if (!heading || !heading.checkVisibility()) return false;
    heading.focus({ preventScroll: true });
    return document.activeElement === heading;
  };
  if (attempt()) return () => {};
  const watch = new MutationObserver(() => { if (attempt()) stop(); });
  const timer = setTimeout(() => stop(), 15_000);
  const stop = () => { watch.disconnect(); clearTimeout(timer); };
  watch.observe(document.body, { childList: true, subtree: true });
  return stop;
}
