// Small browser helpers shared by the views.
import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface LatLon { lat: number; lon: number }
/** SPEC 5: central London when the browser will not say where the visitor is. */
export const CENTRAL_LONDON: LatLon = { lat: 51.5074, lon: -0.1278 };

let located: Promise<LatLon> | null = null;

/** The browser location, asked once per page with SPEC 5's 10 s timeout; failures are logged only (SPEC 8). */
export function browserLocation(): Promise<LatLon> {
  located ??= new Promise<LatLon>((resolve) => {
    if (!('geolocation' in navigator)) {
      console.info('Geolocation is not supported; using central London');
      resolve(CENTRAL_LONDON);
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }),
      (err) => { console.info(`Geolocation unavailable (${err.message}); using central London`); resolve(CENTRAL_LONDON); },
      { timeout: 10_000, maximumAge: 300_000 },
    );
  });
  return located;
}

/**
 * The browser location for a form, asked for on the visitor's first gesture in it (`ask`, from its focus or pointer
 * events), not when the page loads: browsers and Lighthouse count a permission prompt nobody asked for against the
 * page (decision 30). Null until the browser (or the fallback) answers.
 */
export function useBrowserLocation(): [LatLon | null, () => void] {
  const [where, setWhere] = useState<LatLon | null>(null);
  const live = useRef(false);
  useEffect(() => {
    live.current = true;
    return () => { live.current = false; };
  }, []);
  const ask = useCallback(() => { browserLocation().then((l) => { if (live.current) setWhere(l); }); }, []);
  return [where, ask];
}

/** Mobile breakpoint of SPEC 9. */
export function useIsMobile(): boolean {
  const query = '(max-width: 768px)';
  const [mobile, setMobile] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    const m = matchMedia(query);
    const on = () => setMobile(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return mobile;
}

let markShown: (committedAt: number) => void = () => {};
const shown = new Promise<number>((resolve) => { markShown = resolve; });
let painted: Promise<void> | null = null;
/**
 * Resolves once the page's main content is on screen: the first view has rendered (`useContentShown`, not a loading
 * screen) and the browser has painted it. Later calls resolve at once. Work that must not delay that paint (chunks for
 * later steps, lists for the form, below-the-fold parts, the footer) starts here, not in an effect: React may run a
 * render's effects before the browser has shown it, and anything fetched by then competes with it (decision 32).
 * A page that never says its content is shown (or a hidden tab, which paints nothing) goes on after 1.5 s.
 */
export function afterFirstPaint(): Promise<void> {
  painted ??= Promise.race([shown, new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), 1500))]).then(presented);
  return painted;
}

/** Paint entries whose time is when a painted frame reached the screen. */
const PAINT_ENTRIES = ['paint', 'largest-contentful-paint'];
/** How long to wait for a paint entry (a view no larger than what was already on screen reports none). */
const PRESENTED_TIMEOUT_MS = 500;

/**
 * After the browser has put on screen what was committed at `since`, then a task. A frame's callbacks run before it
 * paints, and the frame reaches the screen later still; anything fetched before then competes with that paint (and
 * Lighthouse dates LCP by when it reached the screen). Where the browser reports paints (FCP, LCP entries), the first
 * one at or after `since` says so; elsewhere two frames do. At once where there are no frames (not a browser).
 */
function presented(since: number): Promise<void> {
  const supported: readonly string[] = typeof PerformanceObserver === 'function' ? PerformanceObserver.supportedEntryTypes ?? [] : [];
  const types = PAINT_ENTRIES.filter((t) => supported.includes(t));
  if (!types.length) return afterFrames();
  return new Promise((resolve) => {
    let waiting = true;
    const done = () => {
      if (!waiting) return;
      waiting = false;
      observers.forEach((o) => o.disconnect());
      clearTimeout(timer);
      setTimeout(resolve, 0);
    };
    const timer = setTimeout(done, PRESENTED_TIMEOUT_MS);
    const observers = types.map((type) => {
      const o = new PerformanceObserver((list) => { if (list.getEntries().some((e) => e.startTime >= since)) done(); });
      o.observe({ type, buffered: true });
      return o;
    });
  });
}

/** Two frames, then a task: the first frame's paint is on screen by the second. At once where there are no frames. */
function afterFrames(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return resolve();
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
}

/** The page's main content has committed: `afterFirstPaint` resolves once the browser has shown it. */
export function contentShown(): void {
  markShown(performance.now());
}

/**
 * Called by the component that renders the page's main content (inside its Suspense). A layout effect runs as that
 * content commits, before the browser paints it, so the paint it waits for is never one that came before.
 */
export function useContentShown(): void {
  useLayoutEffect(contentShown, []);
}

/**
 * A module fetched in the background once `wanted` is true and the page has painted (a lazy chunk): null until it has
 * arrived. For parts that must show the moment they are asked for, where React.lazy would reveal them up to 300 ms late.
 */
export function usePreloaded<T>(load: () => Promise<T>, wanted = true): T | null {
  const [mod, setMod] = useState<T | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    afterFirstPaint().then(load).then((m) => { if (live) setMod(() => m); }, (err) => console.error('A part of the page could not be loaded:', err));
    return () => { live = false; };
    // `load` is a constant import() of the caller's: only `wanted` starts it.
  }, [wanted]);
  return mod;
}

let firstPaintDone = false;
/**
 * False until the page's first paint, true from then on (and at once on every later mount): a part rendered only
 * when true is left out of the first paint, so the headline shows without waiting for it (decision 30).
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(firstPaintDone);
  useEffect(() => {
    if (ready) return;
    let live = true;
    afterFirstPaint().then(() => {
      firstPaintDone = true;
      if (live) startTransition(() => setReady(true));
    });
    return () => { live = false; };
  }, [ready]);
  return ready;
}
