// Placing an address the visitor typed or picked: the operator's known
// places first (by text, then by postcode), then the GB gazetteer.
import type { Queryable } from '../db/index';
import { Gazetteer } from './gazetteer';
import { reference } from '../operator/referenceData';

export interface Place {
  address: string;
  postcode: string;
  lat: number;
  lon: number;
  source: 'address' | 'postcode' | 'airport' | 'town' | 'postcode-area';
}

export class UnknownPlaceError extends Error {
  constructor(readonly text: string, readonly field: string) {
    super(`We could not find "${text}". Please choose an address from the suggestions or add its postcode.`);
  }
}

const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/i;

export function extractPostcode(text: string): string | null {
  const m = POSTCODE.exec(text);
  return m ? `${m[1]} ${m[2]}`.toUpperCase() : null;
}

let gazetteer: Gazetteer | null = null;
const gb = () => (gazetteer ??= Gazetteer.load());

export async function findPlace(db: Queryable, text: string): Promise<Place | null> {
  const wanted = text.trim();
  const known = await reference(db);
  const exact = known.placesByAddress.get(wanted.toLowerCase());
  if (exact) return { ...exact, source: 'address' };
  const postcode = extractPostcode(wanted);
  const byPostcode = postcode && known.placesByPostcode.get(postcode.replace(' ', ''));
  if (byPostcode) return { ...byPostcode, source: 'postcode' };
  const hit = gb().find(wanted, postcode);
  return hit ? { address: wanted, postcode: postcode ?? '', lat: hit.lat, lon: hit.lon, source: hit.kind } : null;
}
