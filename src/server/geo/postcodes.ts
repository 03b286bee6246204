// Reading UK postcodes out of address text (decision 23). A full postcode is an
// outward code (area letters, district) and an inward code (a digit and two
// letters, never C, I, K, M, O or V); the area must be one of the UK's postcode
// areas. An outward code on its own counts only as the last thing in the text
// ("Reading RG1", "London SW1A"), and not after a word that numbers a flat,
// unit or gate ("Flat B1", "Unit M1", "Gate E1").
import { POSTCODE_AREA_TOWNS } from './postcodeAreas';

const OUTWARD = '([A-Z]{1,2})(\\d[A-Z\\d]?)';
const INWARD = '(\\d[ABD-HJLNP-UW-Z]{2})';
const FULL = new RegExp(`(?:^|[^A-Z0-9])${OUTWARD} ?${INWARD}(?![A-Z0-9])`, 'gi');
const LAST_OUTWARD = new RegExp(`(?:^|[^A-Z0-9])${OUTWARD}[\\s.,;]*$`, 'i');
const NUMBERING_WORD = /\b(flat|unit|apartment|apt|suite|room|block|floor|level|gate|terminal|platform|stand|bay|plot|pier|house|no)\W*$/i;

export interface Postcode {
  /** 'SW1A 2AA', or only the outward code 'SW1A' when that is all the text has. */
  text: string;
  area: string;
  outward: string;
  full: boolean;
}

const isArea = (letters: string) => Object.hasOwn(POSTCODE_AREA_TOWNS, letters);

/** The last full postcode of the text, else an outward code that ends it; null when there is neither. */
export function findPostcode(text: string): Postcode | null {
  const upper = text.toUpperCase();
  let found: Postcode | null = null;
  for (const m of upper.matchAll(FULL)) {
    if (!isArea(m[1])) continue;
    const outward = m[1] + m[2];
    found = { text: `${outward} ${m[3]}`, area: m[1], outward, full: true };
  }
  if (found) return found;
  const m = LAST_OUTWARD.exec(upper);
  if (!m || !isArea(m[1])) return null;
  const start = m.index + (/^[A-Z]/.test(m[0]) ? 0 : 1);
  if (NUMBERING_WORD.test(upper.slice(0, start))) return null;
  const outward = m[1] + m[2];
  return { text: outward, area: m[1], outward, full: false };
}

/** The full postcode of the text as 'SW1A 2AA', or null. */
export function extractPostcode(text: string): string | null {
  const p = findPostcode(text);
  return p?.full ? p.text : null;
}
