// The Google Distance Matrix and OSRM adapters against local stand-ins that
// answer in those services' real response formats, through the price API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { googleDistance } from '../../src/server/geo/google';
import { osrmDistance } from '../../src/server/geo/osrm';
import { estimateDistance, withEstimateFallback } from '../../src/server/geo/distance';
import { distanceFromConfig } from '../../src/server/geo/index';
import { testApp } from './setup';
import type { Db } from '../../src/server/db/index';

let server: Server;
let base = '';
const seen: URL[] = [];
let googleReply: (u: URL) => unknown = () => ({});
let osrmReply: (u: URL) => unknown = () => ({});

// One database for the file; each test builds its app with its own distance service on it.
let db: Db;
beforeAll(async () => { db = (await testApp()).db; });
afterAll(async () => { await db.close(); });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const u = new URL(req.url!, 'http://stand-in');
    seen.push(u);
    const body = u.pathname.startsWith('/maps/api/distancematrix/json') ? googleReply(u) : osrmReply(u);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A port that was free a moment ago, so connecting to it is refused (ECONNREFUSED). */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const trip = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05',
};

// https://developers.google.com/maps/documentation/distance-matrix/distance-matrix#DistanceMatrixResponse
const matrix = (metres: number, seconds: number, status = 'OK') => ({
  destination_addresses: ['Trafalgar Sq, London WC2N 5DN, UK'], origin_addresses: ['Heathrow Terminal 5, Longford TW6 2GA, UK'],
  rows: [{ elements: [status === 'OK'
    ? { distance: { text: '17.4 mi', value: metres }, duration: { text: '52 mins', value: seconds }, status }
    : { status }] }],
  status: 'OK',
});

describe('Google Distance Matrix', () => {
  it('prices from the distance and duration Google reports', async () => {
    googleReply = () => matrix(28_000, 3120);
    const t = await testApp({ distance: googleDistance('server-key', base), db });
    const res = await t.call('POST', '/calculate-distance-price', trip);
    expect(res.status).toBe(200);
    expect([res.body.via_miles, res.body.time_duration, res.body.estimated]).toEqual([17.4, 3120, false]);
    const q = seen.at(-1)!;
    expect(q.searchParams.get('key')).toBe('server-key');
    expect(q.searchParams.get('origins')).toBe('51.4723,-0.488');
    expect(q.searchParams.get('units')).toBe('imperial');
  });

  it('sends an address placed only by its town as text, and answers NOT_FOUND with 422', async () => {
    googleReply = () => ({ ...matrix(0, 0, 'NOT_FOUND'), destination_addresses: [''] });
    const t = await testApp({ distance: googleDistance('k', base), db });
    const res = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: '1 Nowhere Lane, Reading' });
    expect([res.status, res.body.field]).toEqual([422, 'dropoff']);
    expect(seen.at(-1)!.searchParams.get('destinations')).toBe('1 Nowhere Lane, Reading, UK');
  });

  it('never asks Google about an address the server cannot place (decision 23)', async () => {
    googleReply = () => matrix(28_000, 3120);
    const t = await testApp({ distance: googleDistance('k', base), db });
    const asked = seen.length;
    const res = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: '1 Nowhere Lane' });
    expect([res.status, res.body.field]).toEqual([422, 'dropoff']);
    expect(seen.length).toBe(asked);
  });

  it('falls back to the estimate when Google refuses the request', async () => {
    googleReply = () => ({ status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your daily request quota', rows: [] });
    const logged: string[] = [];
    const service = withEstimateFallback(googleDistance('k', base), (m) => logged.push(m));
    const leg = await service.leg({ text: 'a', lat: 51.4723, lon: -0.488 }, { text: 'b', lat: 51.508, lon: -0.1281 });
    expect(leg.estimated).toBe(true);
    expect(leg.miles).toBeCloseTo(20.4, 1);
    expect(logged[0]).toContain('OVER_QUERY_LIMIT');
  });
});

describe('OSRM', () => {
  it('prices from the route OSRM reports, sending lon,lat pairs', async () => {
    // http://project-osrm.org/docs/v5.24.0/api/#route-service
    osrmReply = () => ({ code: 'Ok', routes: [{ distance: 29_500.4, duration: 2875.2, weight: 2875.2, legs: [] }], waypoints: [] });
    const t = await testApp({ distance: osrmDistance(`${base}/osrm`), db });
    const res = await t.call('POST', '/calculate-distance-price', trip);
    expect([res.body.via_miles, res.body.time_duration, res.body.estimated]).toEqual([18.3, 2875, false]);
    expect(seen.at(-1)!.pathname).toBe('/osrm/route/v1/driving/-0.488,51.4723;-0.1281,51.508');
  });

  it('answers NoRoute with 422 naming the place', async () => {
    osrmReply = () => ({ code: 'NoRoute', message: 'Impossible route between points' });
    const t = await testApp({ distance: osrmDistance(base), db });
    const res = await t.call('POST', '/calculate-distance-price', trip);
    expect([res.status, res.body.field]).toEqual([422, 'pickup']);
  });

  it('answers 503, not 500, when the service is down and no estimate is possible', async () => {
    const down = osrmDistance(`http://127.0.0.1:${await closedPort()}`);
    // The connection itself is refused (not a port fetch blocks before connecting).
    await expect(down.leg({ text: 'a', lat: 51.4723, lon: -0.488 }, { text: 'b', lat: 51.508, lon: -0.1281 }))
      .rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    const t = await testApp({ distance: down, db });
    const res = await t.call('POST', '/calculate-distance-price', trip);
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('try again');
  });
});

describe('choosing the service from configuration', () => {
  it('prefers Google, then OSRM, then the estimate', () => {
    expect(distanceFromConfig({ googleMapsServerKey: 'k', osrmUrl: base }).name).toBe('google');
    expect(distanceFromConfig({ osrmUrl: base }).name).toBe('osrm');
    expect(distanceFromConfig({})).toBe(estimateDistance);
  });
});
