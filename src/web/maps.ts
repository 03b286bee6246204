// Google Maps for address suggestions, only when the operator set GOOGLE_API_KEY
// (SPEC 4: the script is added after the settings load). Without it, or when it
// fails to load, suggestions come from the operator's own list (SPEC 8: logged only).
import { useEffect, useState } from 'react';

const CALLBACK = '__bookingMapsReady';
let loading: Promise<boolean> | null = null;

export function mapsReady(): boolean {
  return Boolean((window as { google?: typeof google }).google?.maps?.places);
}

export function loadGoogleMaps(key: string): Promise<boolean> {
  if (mapsReady()) return Promise.resolve(true);
  loading ??= new Promise<boolean>((resolve) => {
    const done = (ok: boolean, why?: string) => {
      if (!ok) console.info(`Google Maps not loaded (${why}); using the local address list`);
      window.dispatchEvent(new Event('maps-ready'));
      resolve(ok);
    };
    (window as unknown as Record<string, () => void>)[CALLBACK] = () => done(mapsReady(), 'no places library');
    const script = document.createElement('script');
    script.src = `https://maps.googleapis.com/maps/api/js?key=${encodeURIComponent(key)}&libraries=places&loading=async&callback=${CALLBACK}`;
    script.async = true;
    script.onerror = () => done(false, 'script failed');
    document.head.appendChild(script);
    setTimeout(() => { if (!mapsReady()) done(false, 'timed out'); }, 10_000);
  });
  return loading;
}

/** True once the maps script has loaded with its places library. */
export function useMapsReady(): boolean {
  const [ready, setReady] = useState(mapsReady);
  useEffect(() => {
    const on = () => setReady(mapsReady());
    on();
    window.addEventListener('maps-ready', on);
    return () => window.removeEventListener('maps-ready', on);
  }, []);
  return ready;
}
