// Placing an address the visitor typed or picked (decision 23): the operator's
// known places first (by text, then by postcode), then the GB gazetteer
// (airports, towns, and the town a postcode area is named after). Text that
// none of these place is refused, whatever the distance service: a price is
// never given for a guess.
import { DomainError } from '../errors';
import type { Queryable } from '../db/index';
import { unknownPlaceMessage } from '../../domain/messages';
import { Gazetteer } from './gazetteer';
import { findPostcode } from './postcodes';
import { reference } from '../reference/referenceData';

export { extractPostcode } from './postcodes';

export interface Place {
  address: string;
  postcode: string;
  lat: number;
  lon: number;
  source: 'address' | 'postcode' | 'airport' | 'town' | 'postcode-area';
  /**
   * The point is the place itself (a known address, a known postcode, an airport), not the middle of the town or
   * postcode area it is in: a distance from coordinates that are not exact is an estimate.
   */
  exact: boolean;
}

export class UnknownPlaceError extends DomainError {
  constructor(readonly text: string, field: string) {
    super('invalid', unknownPlaceMessage(text), field);
  }
}

let gazetteer: Gazetteer | null = null;
const gb = () => (gazetteer ??= Gazetteer.load());

export async function findPlace(db: Queryable, text: string): Promise<Place | null> {
  const wanted = text.trim();
  const known = await reference(db);
  const exact = known.placesByAddress.get(wanted.toLowerCase());
  if (exact) return { ...exact, source: 'address', exact: true };
  const postcode = findPostcode(wanted);
  const byPostcode = postcode?.full && known.placesByPostcode.get(postcode.text.replace(' ', ''));
  if (byPostcode) return { ...byPostcode, source: 'postcode', exact: true };
  const hit = gb().find(wanted, postcode?.text ?? null);
  return hit
    ? { address: wanted, postcode: postcode?.full ? postcode.text : '', lat: hit.lat, lon: hit.lon, source: hit.kind, exact: hit.kind === 'airport' }
    : null;
}

const airports = new Map<string, boolean>();

/**
 * Whether an address is at an airport (free waiting counts from the landing, issue 27): the gazetteer's airports by
 * name. Asked on every price call for its pickup: remembered (a few thousand addresses).
 */
export function isAirportAddress(text: string): boolean {
  const key = text.trim();
  let airport = airports.get(key);
  if (airport === undefined) {
    airport = gb().find(key, null)?.kind === 'airport';
    if (airports.size >= 4096) airports.delete(airports.keys().next().value!);
    airports.set(key, airport);
  }
  return airport;
}
