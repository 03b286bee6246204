// Issue 41 §3, §5 and §6: which positions may be the car's place, how far the car is in words, and the board's alerts.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_MINUTES, MAX_MPH, PASSENGER_JOB_WORDS, POSITION_EVERY_SECONDS, SHARING_STATUSES, alertMinutes, approach, boardAlerts,
  MAX_ACCURACY_METRES, MIN_POSITION_GAP_SECONDS, SHARING_STALE_HOURS, drivingMinutes, greatCircleMiles, impossibleMove, insideUk, positionProblems,
  sharesPosition, sharingStale, tileSource, tileUrlProblem, tooSoon, type AlertJob,
} from '../../src/domain/tracking';
import { settingInfo, settingProblem } from '../../src/domain/settingsCatalogue';
import { JOB_STATUSES } from '../../src/domain/driverJobs';

const LONDON = { lat: 51.5074, lon: -0.1278 };
const EDINBURGH = { lat: 55.9533, lon: -3.1883 };

describe('which statuses share the position', () => {
  it('is on the way and at the pickup only: never before, never once on board', () => {
    expect(SHARING_STATUSES).toEqual(['on_way', 'arrived']);
    expect(JOB_STATUSES.filter(sharesPosition)).toEqual(['on_way', 'arrived']);
    expect(sharesPosition(null)).toBe(false);
    expect(sharesPosition(undefined)).toBe(false);
    expect(POSITION_EVERY_SECONDS).toBeGreaterThanOrEqual(10);
    expect(POSITION_EVERY_SECONDS).toBeLessThanOrEqual(15);
  });
});

describe('the pace of positions', () => {
  it('takes none sooner than 3 s after the last, and none once the job stood still 3 hours', () => {
    const at = new Date('2030-09-12T06:00:00Z');
    const later = (ms: number) => new Date(at.getTime() + ms);
    expect(MIN_POSITION_GAP_SECONDS).toBe(3);
    expect(tooSoon(at, later(2_999))).toBe(true);
    expect(tooSoon(at, later(3_000))).toBe(false);
    expect(tooSoon(at, later(-5_000))).toBe(true);
    expect(SHARING_STALE_HOURS).toBe(3);
    expect(sharingStale(at, later(3 * 3_600_000))).toBe(false);
    expect(sharingStale(at, later(3 * 3_600_000 + 1))).toBe(true);
    expect(sharingStale(null, at)).toBe(true);
  });
});

describe('a position', () => {
  it('must be numbers of degrees, naming each field that is not', () => {
    expect(positionProblems({ lat: 51.5, lng: -0.12 })).toEqual([]);
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: 0 })).toEqual([]);
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: null })).toEqual([]);
    expect(positionProblems({ lat: '51.5', lng: -0.12 }).map((p) => p.field)).toEqual(['lat']);
    expect(positionProblems({ lat: 51.5 }).map((p) => p.field)).toEqual(['lng']);
    expect(positionProblems({ lat: Number.NaN, lng: Infinity }).map((p) => p.field)).toEqual(['lat', 'lng']);
    expect(positionProblems({ lat: 91, lng: -181 }).map((p) => p.field)).toEqual(['lat', 'lng']);
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: -1 })).toEqual([{ field: 'accuracy', message: 'The accuracy must be a number of metres.' }]);
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: '5' })[0].field).toBe('accuracy');
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: MAX_ACCURACY_METRES })).toEqual([]);
    expect(positionProblems({ lat: 51.5, lng: -0.12, accuracy: MAX_ACCURACY_METRES + 1 })[0].field).toBe('accuracy');
  });

  it('must be in the UK: Scilly to Shetland and Northern Ireland, not Paris, Dublin or the Channel Islands', () => {
    for (const [lat, lon] of [[49.91, -6.31], [60.8, -0.8], [54.6, -5.93], [51.5, 1.75], [50.06, -5.71]]) expect(insideUk({ lat, lon }), `${lat},${lon}`).toBe(true);
    for (const [lat, lon] of [[48.8566, 2.3522], [53.35, -8.75], [49.45, -2.54], [61, -1], [51.5, 1.85], [49.79, -6.3]]) expect(insideUk({ lat, lon }), `${lat},${lon}`).toBe(false);
    expect(positionProblems({ lat: 48.8566, lng: 2.3522 })).toEqual([{ field: 'lat', message: 'This position is outside the UK, so it was not stored as the car’s place.' }]);
    // A field that is not a number is named first; the UK is asked of numbers only.
    expect(positionProblems({ lat: 'x', lng: 2.35 })).toHaveLength(1);
  });

  it('is no car when it is further from the last than 200 mph allows', () => {
    expect(MAX_MPH).toBe(200);
    const at = new Date('2030-09-12T06:00:00Z');
    const later = (s: number) => new Date(at.getTime() + s * 1000);
    // Charing Cross to Edinburgh (about 330 miles): over 200 mph in an hour, under in two.
    expect(greatCircleMiles(LONDON, EDINBURGH)).toBeGreaterThan(320);
    expect(greatCircleMiles(LONDON, EDINBURGH)).toBeLessThan(340);
    expect(impossibleMove({ ...LONDON, at }, EDINBURGH, later(3600))).toBe(true);
    expect(impossibleMove({ ...LONDON, at }, EDINBURGH, later(7200))).toBe(false);
    // One mile in 30 s is 120 mph; in 15 s, 240.
    const mile = { lat: LONDON.lat + 1 / 69.05, lon: LONDON.lon };
    expect(impossibleMove({ ...LONDON, at }, mile, later(30))).toBe(false);
    expect(impossibleMove({ ...LONDON, at }, mile, later(15))).toBe(true);
    // Two positions in the same instant count as a second apart: 50 yards is no jump, a mile is.
    expect(impossibleMove({ ...LONDON, at }, { lat: LONDON.lat + 0.0004, lon: LONDON.lon }, at)).toBe(false);
    expect(impossibleMove({ ...LONDON, at }, mile, at)).toBe(true);
    // Just under and just over 200 mph over an hour.
    const north = (miles: number) => ({ lat: LONDON.lat + miles / 69.05, lon: LONDON.lon });
    expect(impossibleMove({ ...LONDON, at }, north(199), later(3600))).toBe(false);
    expect(impossibleMove({ ...LONDON, at }, north(201), later(3600))).toBe(true);
  });
});

describe("the car's distance from the pickup", () => {
  it('is by road (30% over the straight line), at 20 mph in town and 50 beyond 10 miles, in whole minutes', () => {
    expect(drivingMinutes(0.1)).toBe(1);
    expect(drivingMinutes(2)).toBe(6);
    expect(drivingMinutes(10)).toBe(30);
    expect(drivingMinutes(15)).toBe(36);
    expect(drivingMinutes(10.01)).toBe(31);
    const twoMiles = { lat: LONDON.lat + 2 / 69.05, lon: LONDON.lon };
    const a = approach(twoMiles, LONDON);
    expect(a.miles).toBe(2.6);
    expect(a).toEqual({ miles: 2.6, minutes: 8, words: '2.6 miles away, about 8 min' });
    const far = { lat: LONDON.lat + 40 / 69.05, lon: LONDON.lon };
    expect(approach(far, LONDON)).toEqual({ miles: 52, minutes: 81, words: '52.0 miles away, about 1 h 21 min' });
    expect(approach({ lat: LONDON.lat + 0.9 / 69.05, lon: LONDON.lon }, LONDON).words).toBe('1.2 miles away, about 4 min');
  });

  it('is "At the pickup point" under a tenth of a mile', () => {
    expect(approach(LONDON, LONDON)).toEqual({ miles: 0, minutes: 0, words: 'At the pickup point' });
    expect(approach({ lat: LONDON.lat + 0.03 / 69.05, lon: LONDON.lon }, LONDON).words).toBe('At the pickup point');
    expect(approach({ lat: LONDON.lat + 0.08 / 69.05, lon: LONDON.lon }, LONDON).words).toBe('0.1 miles away, about 1 min');
  });

  it("reads every status in the passenger's words", () => {
    for (const s of JOB_STATUSES) expect(PASSENGER_JOB_WORDS[s], s).toMatch(/^[A-Z].{8,}$/);
    expect(PASSENGER_JOB_WORDS.on_way).toBe('Your driver is on the way');
    expect(PASSENGER_JOB_WORDS.arrived).toBe('Your driver is at the pickup point');
  });
});

describe("the board's alerts", () => {
  const now = new Date('2030-09-12T06:00:00Z');
  const inMinutes = (m: number) => new Date(now.getTime() + m * 60_000).toISOString();
  const job = (over: Partial<AlertJob> = {}): AlertJob => ({
    bookingStatus: 'confirmed', pickupAt: inMinutes(120), hasDriver: true, jobStatus: 'accepted', dispatchedAt: inMinutes(-60), ...over,
  });
  const kinds = (j: AlertJob, m = DEFAULT_ALERT_MINUTES) => boardAlerts(j, now, m).map((a) => a.kind);

  it('has the issue’s defaults, and reads whole minutes from the settings', () => {
    expect(DEFAULT_ALERT_MINUTES).toEqual({ noDriver: 60, notAccepted: 10, notOnWay: 30 });
    expect(alertMinutes({})).toEqual(DEFAULT_ALERT_MINUTES);
    expect(alertMinutes({ ALERT_NO_DRIVER_MINUTES: ' 90 ', ALERT_NOT_ACCEPTED_MINUTES: '0', ALERT_NOT_ON_WAY_MINUTES: '' }))
      .toEqual({ noDriver: 90, notAccepted: 0, notOnWay: 30 });
    expect(alertMinutes({ ALERT_NO_DRIVER_MINUTES: '1.5', ALERT_NOT_ACCEPTED_MINUTES: 'ten', ALERT_NOT_ON_WAY_MINUTES: null })).toEqual(DEFAULT_ALERT_MINUTES);
  });

  it('flags a job with no driver from 60 minutes before its pickup', () => {
    expect(kinds(job({ hasDriver: false, jobStatus: null, pickupAt: inMinutes(61) }))).toEqual([]);
    expect(boardAlerts(job({ hasDriver: false, jobStatus: null, pickupAt: inMinutes(60) }), now, DEFAULT_ALERT_MINUTES))
      .toEqual([{ kind: 'no_driver', words: 'No driver: pickup in 60 min' }]);
    expect(boardAlerts(job({ hasDriver: false, jobStatus: 'declined', pickupAt: inMinutes(-5) }), now, DEFAULT_ALERT_MINUTES))
      .toEqual([{ kind: 'no_driver', words: 'No driver: pickup was 5 min ago' }]);
    expect(kinds(job({ hasDriver: false, pickupAt: inMinutes(90) }), { ...DEFAULT_ALERT_MINUTES, noDriver: 90 })).toEqual(['no_driver']);
  });

  it('flags a job not accepted 10 minutes after it was assigned', () => {
    expect(kinds(job({ jobStatus: 'assigned', dispatchedAt: inMinutes(-9) }))).toEqual([]);
    expect(boardAlerts(job({ jobStatus: 'assigned', dispatchedAt: inMinutes(-10) }), now, DEFAULT_ALERT_MINUTES))
      .toEqual([{ kind: 'not_accepted', words: 'Not accepted 10 min after assignment' }]);
    expect(kinds(job({ jobStatus: 'accepted', dispatchedAt: inMinutes(-50) }))).toEqual([]);
    // Assigned before issue 41 kept no time: nothing to count from.
    expect(kinds(job({ jobStatus: 'assigned', dispatchedAt: null }))).toEqual([]);
  });

  it('flags a driver not on the way 30 minutes before the pickup', () => {
    expect(kinds(job({ pickupAt: inMinutes(31) }))).toEqual([]);
    expect(boardAlerts(job({ pickupAt: inMinutes(30) }), now, DEFAULT_ALERT_MINUTES)).toEqual([{ kind: 'not_on_way', words: 'Driver not on the way: pickup in 30 min' }]);
    expect(kinds(job({ jobStatus: 'assigned', pickupAt: inMinutes(20), dispatchedAt: inMinutes(-15) }))).toEqual(['not_accepted', 'not_on_way']);
    for (const s of ['on_way', 'arrived', 'on_board']) expect(kinds(job({ jobStatus: s, pickupAt: inMinutes(-10) })), s).toEqual([]);
  });

  it('flags nothing of a booking that is not confirmed', () => {
    for (const status of ['cancelled', 'completed', 'no_show', 'pending']) {
      expect(kinds(job({ bookingStatus: status, hasDriver: false, jobStatus: null, pickupAt: inMinutes(5) })), status).toEqual([]);
    }
  });
});

describe('the map tiles setting', () => {
  it('is empty (no map), or https with {z}, {x} and {y}; http only to this machine', () => {
    expect(tileUrlProblem('')).toBeNull();
    expect(tileUrlProblem('  ')).toBeNull();
    expect(tileUrlProblem('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBeNull();
    expect(tileUrlProblem('https://{s}.tile.example.com/{z}/{x}/{y}.png?key=abc')).toBeNull();
    expect(tileUrlProblem('http://127.0.0.1:9000/{z}/{x}/{y}.png')).toBeNull();
    expect(tileUrlProblem('http://localhost:9000/{z}/{x}/{y}.png')).toBeNull();
    expect(tileUrlProblem('http://tiles.example.com/{z}/{x}/{y}.png')).toBe('The tile address must start with https://.');
    expect(tileUrlProblem('javascript:alert(1)//{z}/{x}/{y}')).toBe('The tile address must start with https://.');
    expect(tileUrlProblem('https://tile.example.com/{z}/{x}.png')).toBe('The tile address must hold {z}, {x} and {y}.');
    expect(tileUrlProblem('https://tile.example.com/{x}/{y}.png')).toBe('The tile address must hold {z}, {x} and {y}.');
    expect(tileUrlProblem('https://tile.example.com/{z}/{y}.png')).toBe('The tile address must hold {z}, {x} and {y}.');
    expect(tileUrlProblem('tiles/{z}/{x}/{y}.png')).toMatch(/^Enter the tile address/);
    // Its host goes into the pages' security policy: a plain name, a domain and its ending at least (one more after {s}).
    for (const bad of ['https://evil.com;report-uri/{z}/{x}/{y}', 'https://evil.com,script-src/{z}/{x}/{y}', 'https://*/{z}/{x}/{y}',
      'https://{s}.com/{z}/{x}/{y}.png', 'https://{s}.example.com/{z}/{x}/{y}.png', 'https://localhost/{z}/{x}/{y}', 'https://tiles/{z}/{x}/{y}']) {
      expect(tileUrlProblem(bad), bad).toMatch(/^Enter the tile address/);
      expect(tileSource(bad), bad).toBeNull();
    }
    expect(tileUrlProblem('https://a.tiles.example.co.uk:8443/{z}/{x}/{y}.png')).toBeNull();
    expect(settingProblem(settingInfo('MAP_TILE_URL')!, 'http://tiles.example.com/{z}/{x}/{y}.png')).toBe('Map tiles: The tile address must start with https://.');
    expect(settingProblem(settingInfo('MAP_TILE_URL')!, '')).toBeNull();
  });

  it("names the tiles' origin for the page's Content-Security-Policy, {s} subdomains as a wildcard", () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tileSource('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toBe('https://*.tile.example.com');
    expect(tileSource('http://127.0.0.1:9000/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:9000');
    expect(tileSource('')).toBeNull();
    expect(tileSource(null)).toBeNull();
    expect(tileSource(undefined)).toBeNull();
    expect(tileSource('http://tiles.example.com/{z}/{x}/{y}.png')).toBeNull();
  });
});
