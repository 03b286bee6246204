// Google Places suggestions (use-places-autocomplete) restricted as SPEC 5 says:
// country gb, radius 50000 m, types geocode and establishment, biased to a box
// of about 0.1 degree around the visitor; the postcode is added when found.
// A lazy chunk: AddressInput loads it only once the maps script is ready, so
// use-places-autocomplete stays out of the home bundle when there is no key.
import { useEffect, useMemo, useState } from 'react';
import usePlacesAutocomplete, { getGeocode, getZipCode } from 'use-places-autocomplete';
import { useMapsReady } from '../maps';
import { browserLocation, type LatLon } from '../hooks';

export interface PlaceSuggestion { placeId: string; address: string }

export function placesRequest(at: LatLon) {
  return {
    componentRestrictions: { country: 'gb' },
    radius: 50_000,
    location: new google.maps.LatLng(at.lat, at.lon),
    bounds: { south: at.lat - 0.05, west: at.lon - 0.05, north: at.lat + 0.05, east: at.lon + 0.05 },
    types: ['geocode', 'establishment'],
  };
}

export function useGooglePlaces(text: string, active: boolean) {
  const ready = useMapsReady();
  const [at, setAt] = useState<LatLon | null>(null);
  const { init, setValue, suggestions, clearSuggestions } = usePlacesAutocomplete({
    initOnMount: false, debounce: 250, cache: 300,
    requestOptions: ready && at ? placesRequest(at) : undefined,
  });
  // Asked once the visitor is in an address field (a gesture), never on load (decision 30).
  useEffect(() => { if (ready && active) browserLocation().then(setAt); }, [ready, active]);
  useEffect(() => { if (ready && at) init(); }, [ready, at, init]);
  useEffect(() => {
    if (!ready || !at) return;
    if (active && text.trim().length >= 2) setValue(text, true);
    else clearSuggestions();
  }, [ready, at, active, text, setValue, clearSuggestions]);

  const list: PlaceSuggestion[] = useMemo(
    () => (ready ? suggestions.data.map((s) => ({ placeId: s.place_id, address: s.description })) : []),
    [ready, suggestions.data],
  );
  return { suggestions: list };
}

/** Renders nothing: feeds the address field with Google's suggestions for its text. */
export function GooglePlacesFeed({ text, active, onSuggestions }: {
  text: string; active: boolean; onSuggestions: (list: PlaceSuggestion[]) => void;
}) {
  const { suggestions } = useGooglePlaces(text, active);
  useEffect(() => { onSuggestions(suggestions); }, [suggestions, onSuggestions]);
  return null;
}

/** The chosen place's text, with its postcode added when Google knows it and it is not there yet. */
export async function withPostcode(s: PlaceSuggestion): Promise<string> {
  try {
    const [result] = await getGeocode({ placeId: s.placeId });
    const zip = result ? getZipCode(result, false) : null;
    return zip && !s.address.toUpperCase().includes(zip.toUpperCase()) ? `${s.address} ${zip}` : s.address;
  } catch (err) {
    console.info('Postcode lookup failed:', (err as Error).message ?? err);
    return s.address;
  }
}
