// Placing free text without a maps service: GB airports (by IATA code or by
// name next to the word "airport"), towns named in the text, and finally the
// town a postcode area is named after. Data: gazetteer-gb.json (npm run gazetteer).
// A town's name is not read as the town where it names a street ("London Road",
// "Oxford Street"), and a town called by a word every address uses (Street,
// Church, Grove, Hill...) counts only as the whole last part of the address
// ("Clarks Village, Street"), never inside "10 High Street" (decision 23).
import { readFileSync } from 'node:fs';
import { POSTCODE_AREA_TOWNS } from './postcodeAreas';

interface Town { name: string; lat: number; lon: number; population: number }
interface Airport { name: string; city: string; iata: string; lat: number; lon: number }
export interface GazetteerHit { name: string; lat: number; lon: number; kind: 'airport' | 'town' | 'postcode-area' }

const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9']+/g, ' ').trim().split(' ').filter(Boolean);

/** Words that follow a name to make a street's name: "London Road" is a street, not London. */
const STREET_TYPES = new Set([
  'road', 'rd', 'street', 'st', 'lane', 'avenue', 'way', 'drive', 'close', 'crescent', 'place', 'square', 'terrace', 'gardens',
  'grove', 'hill', 'park', 'row', 'walk', 'mews', 'court', 'rise', 'view', 'parade', 'green', 'wharf', 'quay', 'yard', 'gate',
  'bridge', 'circus', 'approach', 'boulevard', 'embankment', 'esplanade', 'promenade',
]);
/** Towns whose one-word name is also a common part of an address. */
const COMMON_WORDS = new Set([...STREET_TYPES, 'church', 'ash', 'hook', 'valley', 'banks', 'ford', 'pool', 'dale', 'hurst', 'lea', 'croft', 'shaw', 'wick', 'broadway']);
const POSTCODE_TEXT = /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/gi;

export class Gazetteer {
  private towns = new Map<string, Town>();
  private airportsByName = new Map<string, Airport>();
  private airportsByIata = new Map<string, Airport>();
  private longestName = 1;

  constructor(data: { towns: Town[]; airports: Airport[] }) {
    // Towns arrive most populous first: the first of a name wins (Newport, Wales over smaller Newports).
    for (const t of data.towns) {
      const key = words(t.name).join(' ');
      if (!this.towns.has(key)) this.towns.set(key, t);
      this.longestName = Math.max(this.longestName, key.split(' ').length);
    }
    for (const a of data.airports) {
      this.airportsByIata.set(a.iata, a);
      for (const name of [a.name, a.city]) {
        const key = words(name.replace(/\b(intl|international|airport)\b/gi, '')).join(' ');
        if (key && !this.airportsByName.has(key)) this.airportsByName.set(key, a);
      }
    }
  }

  static load(): Gazetteer {
    return new Gazetteer(JSON.parse(readFileSync(new URL('./gazetteer-gb.json', import.meta.url), 'utf8')));
  }

  /** n-grams of the text, last ones first (an address names its town near the end), with the word after each. */
  private phrases(text: string): { phrase: string; next: string | undefined }[] {
    const w = words(text);
    const out: { phrase: string; next: string | undefined }[] = [];
    for (let end = w.length; end > 0; end--) {
      for (let n = Math.min(this.longestName, end); n >= 1; n--) out.push({ phrase: w.slice(end - n, end).join(' '), next: w[end] });
    }
    return out;
  }

  /** The town the text names, if any (see the rules at the top). */
  private town(text: string): Town | null {
    const withoutPostcodes = text.replace(POSTCODE_TEXT, ' ');
    const lastPart = words(withoutPostcodes.split(',').filter((p) => p.trim()).at(-1) ?? '').join(' ');
    for (const { phrase, next } of this.phrases(withoutPostcodes)) {
      const t = this.towns.get(phrase);
      if (!t || (next && STREET_TYPES.has(next))) continue;
      if (COMMON_WORDS.has(phrase) && phrase !== lastPart) continue;
      return t;
    }
    return null;
  }

  /** Places the text; `postcode` is the postcode or outward code found in it, if any. */
  find(text: string, postcode: string | null): GazetteerHit | null {
    const iata = /\b([A-Z]{3})\b/.exec(text.replace(/\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/g, ''));
    const byCode = iata ? this.airportsByIata.get(iata[1]) : undefined;
    if (byCode && /airport|\(/i.test(text)) return { name: `${byCode.name} Airport`, lat: byCode.lat, lon: byCode.lon, kind: 'airport' };
    if (/\bairport\b/i.test(text)) {
      for (const { phrase } of this.phrases(text)) {
        const a = this.airportsByName.get(phrase);
        if (a) return { name: `${a.name} Airport`, lat: a.lat, lon: a.lon, kind: 'airport' };
      }
    }
    const t = this.town(text);
    if (t) return { name: t.name, lat: t.lat, lon: t.lon, kind: 'town' };
    if (postcode) {
      const area = /^[A-Z]+/.exec(postcode)![0];
      const town = POSTCODE_AREA_TOWNS[area] && this.towns.get(words(POSTCODE_AREA_TOWNS[area]).join(' '));
      if (town) return { name: town.name, lat: town.lat, lon: town.lon, kind: 'postcode-area' };
    }
    return null;
  }
}
