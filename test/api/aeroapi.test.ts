// Issue 42 §1: the FlightAware AeroAPI adapter (src/server/flights/aeroapi.ts) against a local stand-in of AeroAPI
// (node:http on 127.0.0.1) that answers GET /flights/{ident} as AeroAPI's documentation gives it: the key it is
// asked with, the flight it picks of several of that number (the one landing at the pickup's airport on the pickup's
// UK date), what it makes of the times and flags, and what it does with a 404, a 500 or a body that is not a list of
// flights. Then the adapter in the watcher: a booking's pickup follows a delayed flight the stand-in describes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aeroApiFlights } from '../../src/server/flightStatus/aeroapi';
import { checkedAnswer } from '../../src/server/flightStatus/service';
import { watchFlights } from '../../src/server/flights/watcher';
import { airportByCode, isDomesticOrigin, type Airport } from '../../src/domain/flights';
import { ukLocalToInstant } from '../../src/domain/ukTime';
import { loadSettings } from '../../src/server/deps';
import { TEST_SITE_URL, testApp } from './setup';

// ---------------------------------------------------------------------------------------------------------------
// The stand-in: each ident answers what a test sets (a status and a body); every request is kept to be read.

interface Seen { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders }
interface Scripted { status: number; body: unknown }

const seen: Seen[] = [];
const answers = new Map<string, Scripted>();
let server: http.Server;
let standInUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers });
    const match = /^\/flights\/([^/]+)$/.exec(url.pathname);
    const scripted = req.method === 'GET' && match ? answers.get(decodeURIComponent(match[1])) : undefined;
    const { status, body } = scripted ?? { status: 404, body: { title: 'Not found', reason: 'Not found', detail: 'No such flight', status: 404 } };
    res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve); });
  standInUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => { server.close((err) => (err ? reject(err) : resolve())); });
});
beforeEach(() => { seen.length = 0; answers.clear(); });

/** An instant as AeroAPI writes it: ISO 8601 in UTC, no milliseconds. */
const aeroTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const at = (date: string, hhmm: string) => ukLocalToInstant(date, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)));
const plusMinutes = (d: Date, minutes: number) => new Date(d.getTime() + minutes * 60_000);
/** The calendar day after (or before) a date. */
const dayAfter = (date: string, days = 1) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const AIRPORTS: Record<string, { code: string; code_icao: string; code_iata: string; name: string; city: string }> = {
  EGLL: { code: 'EGLL', code_icao: 'EGLL', code_iata: 'LHR', name: 'London Heathrow', city: 'London' },
  EGKK: { code: 'EGKK', code_icao: 'EGKK', code_iata: 'LGW', name: 'London Gatwick', city: 'London' },
  EGPH: { code: 'EGPH', code_icao: 'EGPH', code_iata: 'EDI', name: 'Edinburgh', city: 'Edinburgh' },
  KJFK: { code: 'KJFK', code_icao: 'KJFK', code_iata: 'JFK', name: 'John F Kennedy Intl', city: 'New York' },
  LFPG: { code: 'LFPG', code_icao: 'LFPG', code_iata: 'CDG', name: 'Charles de Gaulle/Roissy', city: 'Paris' },
};

/** One flight as AeroAPI's /flights/{ident} lists it (the fields the adapter reads, and some it does not). */
function aeroFlight(o: {
  ident?: string; from?: string; to?: string; scheduledIn: Date; estimatedIn?: Date | null; actualIn?: Date | null;
  cancelled?: boolean; diverted?: boolean; terminal?: string | null; destination?: Record<string, unknown>;
}) {
  const ident = o.ident ?? 'BAW283';
  const scheduledIn = aeroTime(o.scheduledIn);
  return {
    ident, ident_icao: ident, ident_iata: `BA${ident.slice(3)}`, fa_flight_id: `${ident}-${o.scheduledIn.getTime() / 1000}-schedule-0001`,
    operator: 'BAW', operator_iata: 'BA', flight_number: ident.slice(3),
    origin: AIRPORTS[o.from ?? 'KJFK'], destination: o.destination ?? AIRPORTS[o.to ?? 'EGLL'],
    scheduled_out: aeroTime(plusMinutes(o.scheduledIn, -420)), scheduled_in: scheduledIn,
    estimated_in: o.estimatedIn === undefined ? scheduledIn : o.estimatedIn && aeroTime(o.estimatedIn),
    actual_in: o.actualIn ? aeroTime(o.actualIn) : null,
    cancelled: o.cancelled ?? false, diverted: o.diverted ?? false, terminal_origin: '7', terminal_destination: o.terminal ?? null,
    gate_destination: null, baggage_claim: '5', status: o.actualIn ? 'Arrived / Gate Arrival' : o.cancelled ? 'Cancelled' : 'Scheduled',
    progress_percent: o.actualIn ? 100 : 0, aircraft_type: 'B772', route_distance: 3451,
  };
}
const listOf = (...flights: unknown[]) => ({ status: 200, body: { links: null, num_pages: 1, flights } });

const LHR = airportByCode('LHR') as Airport;
const DATE = '2030-07-02';
const service = () => aeroApiFlights('stand-in-key', standInUrl);
const lookup = (ident = 'BA 283', date = DATE, airport = LHR) => service().lookup(ident, date, airport, at(date, '03:00'));

describe('the request to AeroAPI', () => {
  it('never asks for an end more than two days ahead, as AeroAPI refuses one', async () => {
    answers.set('BA283', listOf(aeroFlight({ scheduledIn: at(DATE, '06:45') })));
    // Two days before, at 10:00: the end of the landing day is 62 hours ahead; the end asked is 48.
    const now = at(dayAfter(DATE, -2), '10:00');
    expect((await service().lookup('BA 283', DATE, LHR, now)).found).toBe(true);
    const [req] = seen.slice(-1);
    expect(new Date(req.query.get('end')!).toISOString()).toBe(new Date(now.getTime() + 48 * 3_600_000).toISOString());
  });
  it('sends the key in x-apikey and the number without spaces as a designator, from the day before to the end of the UK day', async () => {
    answers.set('BA283', listOf(aeroFlight({ scheduledIn: at(DATE, '06:45') })));
    expect((await lookup('BA 283')).found).toBe(true);
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/flights/BA283');
    expect(req.headers['x-apikey']).toBe('stand-in-key');
    expect(req.query.get('ident_type')).toBe('designator');
    expect(new Date(req.query.get('start')!).toISOString()).toBe(ukLocalToInstant(dayAfter(DATE, -1), 0, 0).toISOString());
    expect(new Date(req.query.get('end')!).toISOString()).toBe(ukLocalToInstant(dayAfter(DATE), 0, 0).toISOString());
  });

  it('works with a base address given with a trailing slash', async () => {
    answers.set('BA283', listOf(aeroFlight({ scheduledIn: at(DATE, '06:45') })));
    const answer = await aeroApiFlights('stand-in-key', `${standInUrl}/`).lookup('BA 283', DATE, LHR, at(DATE, '03:00'));
    expect(answer.found).toBe(true);
    expect(seen.map((r) => r.path)).toEqual(['/flights/BA283']);
  });
});

describe('the flight it picks of several of that number', () => {
  it('takes the one that lands at the asked airport on the asked UK date', async () => {
    answers.set('BA283', listOf(
      aeroFlight({ scheduledIn: at(dayAfter(DATE, -1), '06:45'), terminal: 'yesterday' }),
      aeroFlight({ scheduledIn: at(DATE, '06:30'), to: 'EGKK', terminal: 'gatwick' }),
      aeroFlight({ scheduledIn: at(DATE, '06:45'), terminal: '5' }),
      aeroFlight({ scheduledIn: at(dayAfter(DATE), '06:45'), terminal: 'tomorrow' }),
    ));
    const answer = await lookup();
    expect(answer).toEqual({
      found: true,
      flight: { status: 'scheduled', origin: 'KJFK', scheduledIn: aeroTime(at(DATE, '06:45')), estimatedIn: aeroTime(at(DATE, '06:45')), actualIn: null, terminal: '5' },
    });
    // The watcher's check of any answer before believing it takes it: the same flight, the same instants.
    const checked = checkedAnswer(answer);
    expect(checked.found && [checked.flight.status, checked.flight.terminal, Date.parse(checked.flight.scheduledIn)]).toEqual(['scheduled', '5', at(DATE, '06:45').getTime()]);
  });

  it('reads the UK date, not the UTC date: 00:30 BST on the day is 23:30 UTC the day before', async () => {
    // On 2030-07-02, UK time is BST (UTC+1).
    expect(aeroTime(at(DATE, '00:30'))).toBe('2030-07-01T23:30:00Z');
    answers.set('BA283', listOf(
      aeroFlight({ scheduledIn: at(dayAfter(DATE), '00:30'), terminal: 'next UK day' }),
      aeroFlight({ scheduledIn: at(DATE, '00:30'), terminal: 'this UK day' }),
    ));
    const answer = await lookup();
    expect(answer.found && answer.flight.terminal).toBe('this UK day');
  });

  it('matches the airport by its ICAO code (EGLL) or by its IATA code (LHR)', async () => {
    answers.set('BA283', listOf(aeroFlight({ scheduledIn: at(DATE, '06:45'), destination: { code: 'EGLL', code_icao: 'EGLL', code_iata: null } })));
    expect((await lookup()).found).toBe(true);
    answers.set('BA283', listOf(aeroFlight({ scheduledIn: at(DATE, '06:45'), destination: { code: 'LHR', code_icao: null, code_iata: 'LHR' } })));
    expect((await lookup()).found).toBe(true);
    // The same flight asked for Gatwick does not land there.
    expect(await lookup('BA 283', DATE, airportByCode('LGW')!)).toEqual({ found: false });
  });

  it('answers { found: false } when none of that number lands there that day', async () => {
    answers.set('BA283', listOf(
      aeroFlight({ scheduledIn: at(DATE, '06:45'), to: 'EGKK' }),
      aeroFlight({ scheduledIn: at(dayAfter(DATE, -1), '06:45') }),
      aeroFlight({ scheduledIn: at(dayAfter(DATE), '06:45') }),
    ));
    expect(await lookup()).toEqual({ found: false });
    answers.set('BA283', listOf());
    expect(await lookup()).toEqual({ found: false });
  });
});

describe('what it makes of the flight', () => {
  const one = async (flight: Parameters<typeof aeroFlight>[0]) => {
    answers.set('BA283', listOf(aeroFlight(flight)));
    const answer = await lookup();
    if (!answer.found) throw new Error(`not found: ${JSON.stringify(answer)}`);
    return answer.flight;
  };
  const due = at(DATE, '06:45');

  it('a flight landing 55 minutes late is delayed, with its estimated time', async () => {
    expect(await one({ scheduledIn: due, estimatedIn: plusMinutes(due, 55) })).toMatchObject({
      status: 'delayed', scheduledIn: aeroTime(due), estimatedIn: aeroTime(plusMinutes(due, 55)), actualIn: null,
    });
  });

  it('a flight with an actual landing time has landed', async () => {
    expect(await one({ scheduledIn: due, estimatedIn: plusMinutes(due, 20), actualIn: plusMinutes(due, 22) })).toMatchObject({
      status: 'landed', actualIn: aeroTime(plusMinutes(due, 22)),
    });
  });

  it('cancelled: true is cancelled; diverted: true is diverted', async () => {
    expect((await one({ scheduledIn: due, estimatedIn: null, cancelled: true })).status).toBe('cancelled');
    expect((await one({ scheduledIn: due, diverted: true })).status).toBe('diverted');
  });

  it('takes the origin from origin.code_icao: Edinburgh (EGPH) is a domestic arrival, New York (KJFK) is not', async () => {
    const edinburgh = await one({ scheduledIn: due, from: 'EGPH' });
    expect(edinburgh.origin).toBe('EGPH');
    expect(isDomesticOrigin(edinburgh.origin)).toBe(true);
    const newYork = await one({ scheduledIn: due, from: 'KJFK' });
    expect(newYork.origin).toBe('KJFK');
    expect(isDomesticOrigin(newYork.origin)).toBe(false);
  });

  it('takes the terminal from terminal_destination', async () => {
    expect((await one({ scheduledIn: due, terminal: '3' })).terminal).toBe('3');
    expect((await one({ scheduledIn: due, terminal: null })).terminal).toBeNull();
  });
});

describe('when AeroAPI does not answer a list of flights', () => {
  it('a 404 is { found: false }', async () => {
    expect(await lookup('XX 999')).toEqual({ found: false });
    expect(seen.map((r) => r.path)).toEqual(['/flights/XX999']);
  });

  it('a 500 rejects', async () => {
    answers.set('BA283', { status: 500, body: { title: 'Internal error', status: 500 } });
    await expect(lookup()).rejects.toThrow('AeroAPI answered 500');
  });

  it('a body without a flights array rejects', async () => {
    answers.set('BA283', { status: 200, body: { links: null, num_pages: 1 } });
    await expect(lookup()).rejects.toThrow('AeroAPI answered without a list of flights');
    answers.set('BA283', { status: 200, body: { flights: { ident: 'BAW283' } } });
    await expect(lookup()).rejects.toThrow('AeroAPI answered without a list of flights');
  });
});

describe('AeroAPI in the watcher', () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => { t = await testApp({ flights: () => aeroApiFlights('k', standInUrl) }); });
  afterAll(async () => { await t.db.close(); });

  it('moves a booking\'s pickup with a flight the stand-in says lands 55 minutes late', async () => {
    const DAY = '2030-10-04';
    const due = at(DAY, '06:45');
    answers.set('BA117', listOf(
      aeroFlight({ ident: 'BAW117', scheduledIn: at(dayAfter(DAY, -1), '06:45') }),
      aeroFlight({ ident: 'BAW117', scheduledIn: due, estimatedIn: plusMinutes(due, 55), terminal: '5' }),
    ));
    // A guest booking paid in the car, from Heathrow T5 at 07:15, on BA 117.
    t.clock.now = new Date();
    const form = {
      pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
      pickup_date: DAY, pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, pickup_fight_number: 'BA117',
    };
    const prices = await t.call('POST', '/calculate-distance-price', form);
    const booked = await t.call('POST', '/booking', {
      selectedVehicleData: prices.body.price_details.find((p: any) => p.company_name === 'Albion Executive Cars' && p.vehicle_type === 'Saloon'),
      selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
      registrationData: { firstName: 'Ada', surname: 'Aero', number: '07700 900456', email: `ada.aero.${process.pid}@example.com` },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const id = booked.body.data.booking.id as number;
    const pickupOf = async () => (await t.db.query<{ pickup_at: Date }>('SELECT pickup_at FROM bookings WHERE id = $1', [id]))[0].pickup_at.toISOString();
    expect(await pickupOf()).toBe(at(DAY, '07:15').toISOString());

    t.clock.now = at(DAY, '03:00');
    const tally = await watchFlights({
      db: t.db, service: aeroApiFlights('k', standInUrl), settings: () => loadSettings(t.db), siteUrl: TEST_SITE_URL, now: () => t.clock.now,
    });
    expect(tally).toEqual({ answered: 1, failed: 0, over: 0, lost: 0 });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe('/flights/BA117');
    expect(seen[0].headers['x-apikey']).toBe('k');
    // Landing 07:40, then 30 minutes to arrivals from an international flight.
    expect(await pickupOf()).toBe(at(DAY, '08:10').toISOString());
    const [flight] = await t.db.query<{ status: string; origin: string; terminal: string; estimated_in: Date }>(
      'SELECT f.status, f.origin, f.terminal, f.estimated_in FROM flights f JOIN booking_flights bf ON bf.flight_id = f.id WHERE bf.booking_id = $1', [id]);
    expect(flight).toMatchObject({ status: 'delayed', origin: 'KJFK', terminal: '5' });
    expect(flight.estimated_in.toISOString()).toBe(plusMinutes(due, 55).toISOString());
    const moved = await t.db.query<{ subject: string }>("SELECT subject FROM outbound_emails WHERE booking_id = $1 AND kind = 'pickup_moved'", [id]);
    expect(moved).toHaveLength(1);

    // Asked again, AeroAPI says the same (its times without milliseconds): nothing new on the booking's timeline.
    t.clock.now = at(DAY, '03:40');
    expect(await watchFlights({
      db: t.db, service: aeroApiFlights('k', standInUrl), settings: () => loadSettings(t.db), siteUrl: TEST_SITE_URL, now: () => t.clock.now,
    })).toEqual({ answered: 1, failed: 0, over: 0, lost: 0 });
    expect(seen).toHaveLength(2);
    const timeline = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE booking_id = $1 AND action LIKE 'Flight%' ORDER BY id", [id]);
    expect(timeline.map((e) => e.action)).toEqual(['Flight: BA 117 delayed: lands 07:40 (due 06:45)']);
    expect(await pickupOf()).toBe(at(DAY, '08:10').toISOString());
  });
});
