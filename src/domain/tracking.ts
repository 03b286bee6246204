// Following the car (issue 41 §3, §5 and §6): which positions are stored as the car's place, how far the car is from
// the pickup in words, what the passenger reads of the job, and the board's alerts. The driver's page, the passenger's
// page and the board ask these; the server enforces them.
import type { JobStatus } from './driverJobs';

/** While the job is at one of these, the driver's page shares its position; never before, never once on board. */
export const SHARING_STATUSES: readonly JobStatus[] = ['on_way', 'arrived'];
export const sharesPosition = (status: string | null | undefined): boolean => (SHARING_STATUSES as readonly string[]).includes(status ?? '');
/** How often the driver's page sends its position (the issue asks for 10 to 15 s). */
export const POSITION_EVERY_SECONDS = 12;
/** Faster than this since the last stored position, a position is a glitch, not the car. */
export const MAX_MPH = 200;
/** A position sooner than this after the stored one is not taken (nothing written, nobody told): a page sending too often. */
export const MIN_POSITION_GAP_SECONDS = 3;
/**
 * A job whose status has not moved for this long (on the way or at the pickup for hours: the driver forgot to tap) no
 * longer shares its position, so a forgotten page does not follow the car for ever.
 */
export const SHARING_STALE_HOURS = 3;
/** The greatest accuracy a phone reports that is still a position (metres). */
export const MAX_ACCURACY_METRES = 100_000;
/** Great Britain and Northern Ireland with their islands (Scilly to Shetland), generously. */
export const UK_BOUNDS = { south: 49.8, north: 60.95, west: -8.7, east: 1.8 } as const;

export interface Point { lat: number; lon: number }
export interface FieldProblem { field: string; message: string }

const EARTH_RADIUS_MILES = 3958.8;
/** UK roads are on average about 30% longer than the straight line between two places. */
export const ROAD_FACTOR = 1.3;

export function greatCircleMiles(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h));
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const insideUk = (p: Point): boolean =>
  p.lat >= UK_BOUNDS.south && p.lat <= UK_BOUNDS.north && p.lon >= UK_BOUNDS.west && p.lon <= UK_BOUNDS.east;

/**
 * What is wrong with a position as the driver's page sends it ({ lat, lng, accuracy? }: degrees, and metres): each
 * field that is not a number, then a place outside the UK. Empty: it may be the car's place (see `impossibleMove`).
 */
export function positionProblems(body: { lat?: unknown; lng?: unknown; accuracy?: unknown }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isNumber(body.lat) || Math.abs(body.lat) > 90) problems.push({ field: 'lat', message: 'The latitude must be a number of degrees.' });
  if (!isNumber(body.lng) || Math.abs(body.lng) > 180) problems.push({ field: 'lng', message: 'The longitude must be a number of degrees.' });
  if (body.accuracy !== undefined && body.accuracy !== null && (!isNumber(body.accuracy) || body.accuracy < 0 || body.accuracy > MAX_ACCURACY_METRES)) {
    problems.push({ field: 'accuracy', message: 'The accuracy must be a number of metres.' });
  }
  if (problems.length === 0 && !insideUk({ lat: body.lat as number, lon: body.lng as number })) {
    problems.push({ field: 'lat', message: 'This position is outside the UK, so it was not stored as the car’s place.' });
  }
  return problems;
}

/** Whether the car would have moved faster than MAX_MPH from the last stored position (at least a second apart). */
export function impossibleMove(from: Point & { at: Date }, to: Point, at: Date): boolean {
  const hours = Math.max(at.getTime() - from.at.getTime(), 1000) / 3_600_000;
  return greatCircleMiles(from, to) / hours > MAX_MPH;
}

/** Whether a position comes too soon after the stored one to be worth taking. */
export const tooSoon = (from: Date, at: Date): boolean => at.getTime() - from.getTime() < MIN_POSITION_GAP_SECONDS * 1000;

/** Whether a job's status has stood still so long that its position is no longer shared (`statusAt`: when it last moved). */
export const sharingStale = (statusAt: Date | null, now: Date): boolean =>
  statusAt === null || now.getTime() - statusAt.getTime() > SHARING_STALE_HOURS * 3_600_000;

/** Town traffic for the first 10 miles (20 mph), main roads after (50 mph): the car is already moving. */
export function drivingMinutes(roadMiles: number): number {
  const town = Math.min(roadMiles, 10);
  const open = Math.max(roadMiles - 10, 0);
  return Math.max(1, Math.ceil((town / 20 + open / 50) * 60));
}

export interface Approach { miles: number; minutes: number; words: string }

/** How far the car is from the pickup by road, estimated from the straight line, and how long it should take. */
export function approach(car: Point, pickup: Point): Approach {
  const miles = Math.round(greatCircleMiles(car, pickup) * ROAD_FACTOR * 10) / 10;
  if (miles < 0.1) return { miles, minutes: 0, words: 'At the pickup point' };
  const minutes = drivingMinutes(miles);
  const duration = minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
  return { miles, minutes, words: `${miles.toFixed(1)} miles away, about ${duration}` };
}

/** Where the job stands, in the passenger's words (their manage page and its live updates). */
export const PASSENGER_JOB_WORDS: Record<JobStatus, string> = {
  assigned: 'Your driver has been assigned',
  accepted: 'Your driver has accepted the job',
  declined: 'We are finding you a driver',
  on_way: 'Your driver is on the way',
  arrived: 'Your driver is at the pickup point',
  on_board: 'On board: enjoy your journey',
  completed: 'Journey completed',
  no_show: 'The driver could not find you at the pickup point',
};

// The board's alerts (§5): minutes from settings, each with a default.
export interface AlertMinutes { noDriver: number; notAccepted: number; notOnWay: number }
export const ALERT_SETTINGS = { noDriver: 'ALERT_NO_DRIVER_MINUTES', notAccepted: 'ALERT_NOT_ACCEPTED_MINUTES', notOnWay: 'ALERT_NOT_ON_WAY_MINUTES' } as const;
export const DEFAULT_ALERT_MINUTES: AlertMinutes = { noDriver: 60, notAccepted: 10, notOnWay: 30 };

/** The alert minutes from the settings' values: a whole number, else the default. */
export function alertMinutes(values: Record<string, string | null | undefined>): AlertMinutes {
  const read = (name: keyof AlertMinutes) => {
    const v = (values[ALERT_SETTINGS[name]] ?? '').trim();
    return /^\d+$/.test(v) ? Number(v) : DEFAULT_ALERT_MINUTES[name];
  };
  return { noDriver: read('noDriver'), notAccepted: read('notAccepted'), notOnWay: read('notOnWay') };
}

export type BoardAlertKind = 'no_driver' | 'not_accepted' | 'not_on_way' | 'flight';
export interface BoardAlert { kind: BoardAlertKind; words: string }
export interface AlertJob {
  bookingStatus: string;
  /** ISO. */
  pickupAt: string;
  hasDriver: boolean;
  jobStatus: string | null;
  /** When the driver was assigned (ISO), or null. */
  dispatchedAt: string | null;
  /** An airport pickup's flight status (issue 42): diverted or cancelled needs the office. */
  flightStatus?: string | null;
}

const minutesWords = (m: number) => `${m} min`;
const untilPickup = (minutes: number) => (minutes >= 0 ? `pickup in ${minutesWords(minutes)}` : `pickup was ${minutesWords(-minutes)} ago`);

/** What needs the office's eye now on a job of the board. */
export function boardAlerts(job: AlertJob, now: Date, minutes: AlertMinutes): BoardAlert[] {
  if (job.bookingStatus !== 'confirmed') return [];
  const toPickup = Math.floor((Date.parse(job.pickupAt) - now.getTime()) / 60_000);
  const alerts: BoardAlert[] = [];
  if (job.flightStatus === 'diverted' || job.flightStatus === 'cancelled') {
    alerts.push({ kind: 'flight', words: `Flight ${job.flightStatus}: call the passenger` });
  }
  if (!job.hasDriver) {
    if (toPickup <= minutes.noDriver) alerts.push({ kind: 'no_driver', words: `No driver: ${untilPickup(toPickup)}` });
    return alerts;
  }
  if (job.jobStatus === 'assigned' && job.dispatchedAt) {
    const since = Math.floor((now.getTime() - Date.parse(job.dispatchedAt)) / 60_000);
    if (since >= minutes.notAccepted) alerts.push({ kind: 'not_accepted', words: `Not accepted ${minutesWords(since)} after assignment` });
  }
  if ((job.jobStatus === 'assigned' || job.jobStatus === 'accepted') && toPickup <= minutes.notOnWay) {
    alerts.push({ kind: 'not_on_way', words: `Driver not on the way: ${untilPickup(toPickup)}` });
  }
  return alerts;
}

// The map on the passenger's page (issue 41 §3): only where the operator sets a tile source.
export const MAP_SETTINGS = { url: 'MAP_TILE_URL', attribution: 'MAP_TILE_ATTRIBUTION' } as const;

/**
 * What is wrong with a tile URL (the map's tiles, as Leaflet takes them): empty is none; otherwise https (or http to this
 * machine, for a local tile server) with {z}, {x} and {y} in it.
 */
export function tileUrlProblem(value: string): string | null {
  const v = value.trim();
  if (v === '') return null;
  let url: URL;
  try { url = new URL(v.replace(/\{s\}/g, 'a').replace(/\{[a-z]\}/g, '0')); } catch { return 'Enter the tile address, like https://tile.example.com/{z}/{x}/{y}.png.'; }
  const local = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  if (url.protocol !== 'https:' && !local) return 'The tile address must start with https://.';
  // A plain host name (it goes into the pages' security policy): letters, digits, dots and dashes, a domain and its
  // ending at least, and after a {s} (a wildcard in the policy) one more label.
  const host = /^[a-z]+:\/\/([^/?#]+)/i.exec(v)?.[1] ?? '';
  const named = host.replace(/^\{s\}\./, '');
  const labels = named.replace(/:\d{1,5}$/, '').split('.');
  const plain = /^[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i.test(named);
  if (!plain || (!local && labels.length < (host === named ? 2 : 3))) return 'Enter the tile address, like https://tile.example.com/{z}/{x}/{y}.png.';
  if (!['{z}', '{x}', '{y}'].every((p) => v.includes(p))) return 'The tile address must hold {z}, {x} and {y}.';
  return null;
}

/** Where the tiles come from, as a Content-Security-Policy source ({s} subdomains as a wildcard); null when none. */
export function tileSource(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v || tileUrlProblem(v)) return null;
  const url = new URL(v.replace(/\{s\}/g, 'a').replace(/\{[a-z]\}/g, '0'));
  const host = /^[a-z]+:\/\/\{s\}\./i.test(v) ? `*.${url.host.split('.').slice(1).join('.')}` : url.host;
  return `${url.protocol}//${host}`;
}

/** The job as its passenger follows it (their manage page, and each live update): nothing of the office's record. */
export interface LiveJob {
  /** The booking's own status (confirmed, cancelled, completed...). */
  booking_status: string;
  /** Where the driver's job stands, in the passenger's words; null before a driver is assigned. */
  status: JobStatus | null;
  words: string | null;
  driver: { name: string; vehicle: string; colour: string | null; registration: string } | null;
  /**
   * The car's last place while it shares it (on the way, at the pickup), how far and how long from the pickup, and
   * where the pickup is (for the map) when the gazetteer knows it.
   */
  car: { lat: number; lon: number; at: string; approach: Approach | null; pickup?: Point | null } | null;
  /**
   * What the flight of an airport pickup last changed (issue 42): the pickup as it stands (ISO) and the flight's status
   * and words; the passenger's page reloads when it differs from what it shows.
   */
  flight?: { pickup_at: string; said: string | null } | null;
}
