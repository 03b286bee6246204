// Placing free text without a maps service: GB airports (by IATA code or by
// name next to the word "airport"), towns named in the text, and finally the
// town a postcode area is named after. Data: gazetteer-gb.json (npm run gazetteer).
import { readFileSync } from 'node:fs';
import { POSTCODE_AREA_TOWNS } from './postcodeAreas';

interface Town { name: string; lat: number; lon: number; population: number }
interface Airport { name: string; city: string; iata: string; lat: number; lon: number }
export interface GazetteerHit { name: string; lat: number; lon: number; kind: 'airport' | 'town' | 'postcode-area' }

const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9']+/g, ' ').trim().split(' ').filter(Boolean);

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

  /** n-grams of the text, last ones first: an address names its town near the end. */
  private phrases(text: string): string[] {
    const w = words(text);
    const out: string[] = [];
    for (let end = w.length; end > 0; end--) {
      for (let n = Math.min(this.longestName, end); n >= 1; n--) out.push(w.slice(end - n, end).join(' '));
    }
    return out;
  }

  find(text: string, postcode: string | null): GazetteerHit | null {
    const iata = /\b([A-Z]{3})\b/.exec(text.replace(/\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/g, ''));
    const byCode = iata ? this.airportsByIata.get(iata[1]) : undefined;
    if (byCode && /airport|\(/i.test(text)) return { name: `${byCode.name} Airport`, lat: byCode.lat, lon: byCode.lon, kind: 'airport' };
    if (/\bairport\b/i.test(text)) {
      for (const p of this.phrases(text)) {
        const a = this.airportsByName.get(p);
        if (a) return { name: `${a.name} Airport`, lat: a.lat, lon: a.lon, kind: 'airport' };
      }
    }
    for (const p of this.phrases(text)) {
      const t = this.towns.get(p);
      if (t) return { name: t.name, lat: t.lat, lon: t.lon, kind: 'town' };
    }
    if (postcode) {
      const area = /^[A-Z]+/.exec(postcode)![0];
      const town = POSTCODE_AREA_TOWNS[area] && this.towns.get(words(POSTCODE_AREA_TOWNS[area]).join(' '));
      if (town) return { name: town.name, lat: town.lat, lon: town.lon, kind: 'postcode-area' };
    }
    return null;
  }
}
