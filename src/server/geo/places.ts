// Placing an address the visitor typed or picked: the operator's known
// places first (by text, then by postcode), then the GB gazetteer.
import type { Queryable } from '../db/index';
import { Gazetteer } from './gazetteer';

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
  const [exact] = await db.query<Omit<Place, 'source'>>(
    'SELECT address, postcode, lat, lon FROM addresses WHERE lower(address) = lower($1) LIMIT 1', [wanted],
  );
  if (exact) return { ...exact, source: 'address' };
  const postcode = extractPostcode(wanted);
  if (postcode) {
    const [byPostcode] = await db.query<Omit<Place, 'source'>>(
      "SELECT address, postcode, lat, lon FROM addresses WHERE replace(upper(postcode), ' ', '') = $1 LIMIT 1",
      [postcode.replace(' ', '')],
    );
    if (byPostcode) return { ...byPostcode, source: 'postcode' };
  }
  const hit = gb().find(wanted, postcode);
  return hit ? { address: wanted, postcode: postcode ?? '', lat: hit.lat, lon: hit.lon, source: hit.kind } : null;
}
