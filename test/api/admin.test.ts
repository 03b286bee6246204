// `npm run admin`: the operator changes data the API then uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { processStartToken } from '../../src/server/dataLock';

let t: Awaited<ReturnType<typeof testApp>>;
// The fares to the penny: ROUND_OFF off here; its whole-pound prices are test/api/one-price.test.ts's.
beforeAll(async () => { t = await testApp(); await setSetting(t.db, 'ROUND_OFF', 'no'); });
afterAll(async () => { await t.db.close(); });

const trip = {
  pickup: 'Leeds Station, New Station Street, Leeds LS1 4DY', dropoff: 'York Station, Station Road, York YO24 1AB',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 1,
};

describe('npm run admin', () => {
  it('sends failed messages again, but not reset codes, whose body was erased', async () => {
    await t.db.query(`INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html, status, erase_after_send) VALUES
      ('booking_confirmation', 'retry-me@example.com', 'Booking confirmed', 'Body', '<p>Body</p>', 'failed', false),
      ('password_reset', 'reset@example.com', 'Your password reset code', '', '', 'failed', true)`);
    expect(await runAdmin(t.db, ['retry-emails'])).toContain('1 message(s) will be sent again');
    const rows = await t.db.query<any>("SELECT to_address, status FROM outbound_emails WHERE to_address IN ('retry-me@example.com', 'reset@example.com') ORDER BY id");
    expect(rows).toEqual([{ to_address: 'retry-me@example.com', status: 'pending' }, { to_address: 'reset@example.com', status: 'failed' }]);
  });

  it('sets a setting the API reads', async () => {
    expect(await runAdmin(t.db, ['set-setting', 'CURRENCY', '€'])).toBe('CURRENCY = €');
    const { body } = await t.call('POST', '/calculate-distance-price', trip);
    expect(body.price_details[0].breakdown.currency).toBe('€');
    await runAdmin(t.db, ['set-setting', 'CURRENCY', '£']);
  });

  it('adds a company, a vehicle type and a rate, and the quote offers it at that rate', async () => {
    await runAdmin(t.db, ['add-company', '--name', 'Yorkshire Executive Travel', '--phone', '+44 113 496 0000']);
    await runAdmin(t.db, ['add-vehicle', '--name', 'Electric Saloon', '--seats', '4', '--luggage', '2', '--hand-luggage', '2']);
    const out = await runAdmin(t.db, ['set-rate', '--company', 'Yorkshire Executive Travel', '--vehicle', 'Electric Saloon',
      '--base', '5.00', '--minimum', '20.00', '--hourly', '40', '--band', '0:3.00', '--band', '10:2.00']);
    expect(out).toBe('Rate set: Yorkshire Executive Travel, Electric Saloon');
    const { body } = await t.call('POST', '/calculate-distance-price', trip);
    const offer = body.price_details.find((p: any) => p.company_name === 'Yorkshire Executive Travel');
    const miles = body.via_miles;
    const expected = Math.max(2000, Math.round(500 + Math.min(miles, 10) * 300 + Math.max(0, miles - 10) * 200));
    expect(Math.round(Number(offer.price) * 100)).toBe(expected);
    expect(await runAdmin(t.db, ['rates'])).toContain('Yorkshire Executive Travel  Electric Saloon');
    await runAdmin(t.db, ['disable-company', '--name', 'Yorkshire Executive Travel']);
    const after = await t.call('POST', '/calculate-distance-price', trip);
    expect(after.body.price_details.some((p: any) => p.company_name === 'Yorkshire Executive Travel')).toBe(false);
  });

  it('adds a known address and bans one', async () => {
    await runAdmin(t.db, ['add-address', '--address', 'Harrogate Convention Centre, King\'s Road, Harrogate HG1 5LA', '--lat', '53.9985', '--lon', '-1.5418', '--postcode', 'HG1 5LA']);
    const { body } = await t.call('GET', '/ai-addresses');
    expect(body.some((a: any) => a.address.startsWith('Harrogate Convention Centre'))).toBe(true);
    await runAdmin(t.db, ['ban-address', 'York Station', '--reason', 'Station closed for works']);
    expect((await t.call('POST', '/calculate-distance-price', trip)).body.message).toBe('Address is banned');
    expect(await runAdmin(t.db, ['banned'])).toContain('Station closed for works');
    await runAdmin(t.db, ['unban-address', 'York Station']);
    expect((await t.call('POST', '/calculate-distance-price', trip)).status).toBe(200);
  });

  it('lists recent bookings and refuses bad input with a clear message', async () => {
    // The seed's only bookings are the demo corporate passenger's five (one of last month on account, issue 44).
    const listed = await runAdmin(t.db, ['bookings']);
    expect(listed.split('\n').filter((l) => /BK-[A-Z2-9]{8}/.test(l))).toHaveLength(5);
    await expect(runAdmin(t.db, ['set-rate', '--company', 'Nobody', '--vehicle', 'Saloon', '--base', '1', '--minimum', '1', '--band', '0:1'])).rejects.toThrow('No company called "Nobody"');
    await expect(runAdmin(t.db, ['set-rate', '--company', 'Metro Cars London', '--vehicle', 'Saloon', '--base', 'abc', '--minimum', '1', '--band', '0:1'])).rejects.toThrow('--base must be an amount');
    await expect(runAdmin(t.db, ['add-address', '--address', 'Paris', '--lat', '48.85', '--lon', '2.35'])).rejects.toThrow('a place in the UK');
    await expect(runAdmin(t.db, ['launch-rockets'])).rejects.toThrow('Unknown command');
  });

  it('keeps drivers and cars on record: added, changed by their mobile or plate, listed with what expires, refused field by field', async () => {
    const driver = ['add-driver', '--name', 'Priya Nair', '--mobile', '07700 900611', '--licence', '263301', '--authority', 'Transport for London',
      '--expiry', '2031-03-31', '--company', 'Metro Cars London'];
    expect(await runAdmin(t.db, driver)).toMatch(/^Driver \d+: Priya Nair, \+447700900611$/);
    expect(await runAdmin(t.db, [...driver.slice(0, 9), '--expiry', '2032-03-31', '--company', 'Metro Cars London', '--inactive'])).toMatch(/\(changed\)$/);
    const [row] = await t.db.query<any>("SELECT to_char(licence_expiry, 'YYYY-MM-DD') AS expiry, active, count(*) OVER () AS n FROM drivers WHERE mobile = '+447700900611'");
    expect(row).toEqual({ expiry: '2032-03-31', active: false, n: expect.anything() });
    expect(Number(row.n)).toBe(1);
    expect(await runAdmin(t.db, ['drivers', '--company', 'Metro Cars London'])).toContain('Priya Nair');
    expect(await runAdmin(t.db, ['drivers', '--company', 'Metro Cars London'])).not.toContain('Daniel Price');
    await expect(runAdmin(t.db, [...driver.slice(0, 3), '--mobile', '020 7946 0321', ...driver.slice(5)])).rejects.toThrow(/--mobile: This is not a UK mobile number/);
    await expect(runAdmin(t.db, [...driver.slice(0, 10), '2031-13-01', ...driver.slice(11)])).rejects.toThrow(/--expiry \(or --licence-expiry\): Enter the licence expiry as a date/);
    await expect(runAdmin(t.db, [...driver.slice(0, 12), 'Nobody'])).rejects.toThrow('No company called "Nobody"');

    const car = ['add-car', '--registration', 'lf21 abc', '--make', 'Skoda', '--model', 'Superb', '--colour', 'Grey', '--vehicle', 'Estate',
      '--passengers', '4', '--suitcases', '3', '--licence', 'PHV 700001', '--licence-expiry', '2031-01-31', '--mot', '2031-02-28',
      '--insurance', '2031-03-31', '--company', 'Metro Cars London'];
    expect(await runAdmin(t.db, car)).toMatch(/^Car \d+: LF21 ABC, Grey Skoda Superb$/);
    expect(await runAdmin(t.db, [...car.slice(0, 2), 'LF21ABC', ...car.slice(3), '--wheelchair'])).toMatch(/\(changed\)$/);
    const [saved] = await t.db.query<any>("SELECT registration, wheelchair FROM cars WHERE plate_key = 'LF21ABC'");
    expect(saved).toEqual({ registration: 'LF21 ABC', wheelchair: true });
    expect(await runAdmin(t.db, ['cars'])).toContain('LF21 ABC');
    await expect(runAdmin(t.db, [...car.slice(0, 10), 'Hovercraft', ...car.slice(11)])).rejects.toThrow('No vehicle type called "Hovercraft"');
    await expect(runAdmin(t.db, [...car.slice(0, 12), '0', ...car.slice(13)])).rejects.toThrow(/--passengers: Passengers: a whole number from 1 to 16/);
  });

  it('will not open the embedded database while the server has it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'admin-lock-'));
    // This test process stands for the running server: its pid and start token, as the server writes them.
    writeFileSync(path.join(dir, 'server.pid'), `${process.pid}\n${processStartToken(process.pid)}\n`);
    try {
      const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin.ts', 'settings'], {
        env: { ...process.env, DATA_DIR: dir },
      });
      await expect(run).rejects.toMatchObject({ stderr: expect.stringContaining('Stop the server, run the command') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
