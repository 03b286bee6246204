// What is left of a value once its personal data goes (decision 60): of an address, its postcode district ("10
// Downing Street, London SW1A 2AA" -> "SW1A"; no postcode, nothing), read by the same postcode rules as the rest of
// the site (../geo/postcodes.ts); of the values a change or a timeline entry kept, only the keys that name no one.
import { findPostcode } from '../geo/postcodes';

/** The postcode district of an address (its outward code), or '' when it has no UK postcode. */
export function postcodeDistrict(address: string | null | undefined): string {
  if (!address) return '';
  return findPostcode(address)?.outward ?? '';
}

/** An address as an anonymous record keeps it: its district; null stays null. */
export const districtOrNull = (address: string | null): string | null => (address === null ? null : postcodeDistrict(address));

/** The rows of an invoice's journey that name no one (payments/invoices.ts, as manage/invoices.ts journeyRows wrote them). */
const PLAIN_JOURNEY_ROWS = /^(pickup date|pickup time|return date|return time|duration|vehicle)$/i;

/** An invoice's journey made anonymous: an address or stop keeps its district, dates and the vehicle stay, the rest goes. */
export function anonymousJourney(rows: { label: string; value: string }[]): { label: string; value: string }[] {
  return rows.flatMap((row) => {
    if (PLAIN_JOURNEY_ROWS.test(row.label.trim())) return [row];
    // 'Pickup address', 'Stop 1'; invoices from before migration 016 said 'Pickup' and 'Drop-off'.
    if (/address|^stop\b|^pickup$|^drop-off$/i.test(row.label.trim())) return [{ ...row, value: postcodeDistrict(row.value) }];
    return [];
  });
}

/**
 * The keys of a change's or a timeline entry's values that name no one (the pickup's date and time, prices, statuses,
 * refunds): every other key (name, phone, e-mail, flight, sign, notes, addresses, reason) goes.
 */
export const NON_PERSONAL_KEYS: readonly string[] = [
  'pickup_date', 'pickup_hour', 'pickup_min', 'total_pence', 'status', 'job_status', 'refund', 'refund_pence', 'refundable_pence',
  'amount', 'amount_pence', 'payment_status', 'price_pence', 'quoted_pence',
];

/** The SQL that keeps only NON_PERSONAL_KEYS of a jsonb value (anything but an object becomes NULL). */
export const nonPersonalJson = (column: string) => `CASE WHEN jsonb_typeof(${column}) = 'object' THEN
  (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) FROM jsonb_each(${column}) AS e(k, v)
    WHERE k IN (${NON_PERSONAL_KEYS.map((k) => `'${k}'`).join(', ')})) END`;

/** A LIKE pattern that finds the text anywhere, its own % and _ taken literally. */
/**
 * A regular expression (PostgreSQL's `~*`, case aside) for text that mentions this e-mail address as a whole address:
 * "o@gmail.com" is found in "Called o@gmail.com." and in '{"email":"o@gmail.com"}', never inside "bruno@gmail.com" or
 * "o@gmail.com.evil" (an export or erase must reach this person's data alone).
 */
export const mentioning = (email: string) =>
  `(^|[^a-z0-9._%+-])${email.replace(/[\\.^$|?*+()[\]{}-]/g, (c) => `\\${c}`)}($|[^a-z0-9.-]|\\.($|[^a-z0-9]))`;

/** An account invoice's route ('<pickup> to <drop-off>', or '<pickup>, hourly ...') as its postcode districts. */
export function anonymousRoute(route: string): string {
  const district = (text: string) => postcodeDistrict(text) || '-';
  const at = route.indexOf(' to ');
  if (at >= 0) return `${district(route.slice(0, at))} to ${district(route.slice(at + 4))}`;
  const hourly = /, hourly\b.*$/.exec(route)?.[0] ?? '';
  return `${district(route.slice(0, route.length - hourly.length))}${hourly}`;
}
