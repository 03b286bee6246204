// A lazily loaded view that can be fetched ahead of need. React.lazy alone
// suspends on its first render even when the chunk is already here, and React
// reveals it up to 300 ms later behind the 'Please wait while loading content'
// overlay. Once `preload()` has finished, the view renders straight away.
import { lazy, useState, type ComponentType } from 'react';

export interface PreloadableView<P extends object> {
  (props: P): React.ReactElement;
  preload: () => Promise<unknown>;
}

export function preloadable<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>): PreloadableView<P> {
  let ready: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetch = () => (pending ??= load().then((m) => (ready = pick(m)), (err) => { pending = null; throw err; }));
  const Lazy = lazy(() => fetch().then((C) => ({ default: C })));
  function View(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded view later would remount it and lose its state.
    const [Component] = useState<ComponentType<P>>(() => ready ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  View.preload = () => fetch().catch((err) => console.error('A part of the page could not be loaded ahead:', err));
  return View;
}
