// Placing an address the visitor typed or picked: the known-places table first.
import type { Queryable } from '../db/index';

export interface Place { address: string; postcode: string; lat: number; lon: number }

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

export async function findPlace(db: Queryable, text: string): Promise<Place | null> {
  const wanted = text.trim();
  const [exact] = await db.query<Place>(
    'SELECT address, postcode, lat, lon FROM addresses WHERE lower(address) = lower($1) LIMIT 1', [wanted],
  );
  if (exact) return exact;
  const postcode = extractPostcode(wanted);
  if (postcode) {
    const [byPostcode] = await db.query<Place>(
      "SELECT address, postcode, lat, lon FROM addresses WHERE replace(upper(postcode), ' ', '') = $1 LIMIT 1",
      [postcode.replace(' ', '')],
    );
    if (byPostcode) return byPostcode;
  }
  return null;
}
