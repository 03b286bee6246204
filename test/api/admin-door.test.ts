// Issue 26 part 3: `npm run admin` while the site runs on the embedded database goes through the server's door
// (src/server/operator/adminDoor.ts): over loopback, with the secret of the door file, never relayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/server/app';
import { adminDoorApp, DOOR_FILE, DOOR_PATH, newDoorSecret, openDoor, readDoor, runThroughDoor } from '../../src/server/operator/adminDoor';
import { estimateDistance } from '../../src/server/geo/distance';
import { KEYS, TEST_SECURITY, localCards, testApp } from './setup';

let t: Awaited<ReturnType<typeof testApp>>;
let server: ServerType;
let port = 0;
const secret = newDoorSecret();
let kicked = 0;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await testApp();
  app = createApp({
    db: t.db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
    now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(t.db),
  }, undefined, adminDoorApp(t.db, secret, () => { kicked++; }));
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.db.close();
});

const door = () => ({ pid: process.pid, port, secret });

describe('the admin door', () => {
  it('runs a command inside the server: its output, and what it changes is seen at once', async () => {
    const listed = await runThroughDoor(door(), ['settings']);
    expect(listed).toMatchObject({ ok: true, output: expect.stringContaining('GRACE_TIME') });
    expect(await runThroughDoor(door(), ['set-setting', 'GRACE_TIME', '45'])).toMatchObject({ ok: true });
    const settings = await (await fetch(`http://127.0.0.1:${port}/api/v1/setting`, { headers: KEYS })).json() as { setting_name: string; setting_value: string }[];
    expect(settings.find((s) => s.setting_name === 'GRACE_TIME')?.setting_value).toBe('45');
    expect(kicked).toBeGreaterThan(0);
    expect(await runThroughDoor(door(), ['bookings'])).toMatchObject({ ok: true, output: expect.stringMatching(/BK-[A-Z2-9]{8}/) });
  });

  it('answers a command typed wrongly with its message, for exit code 2', async () => {
    expect(await runThroughDoor(door(), ['launch-rockets'])).toMatchObject({ ok: false, exitCode: 2, message: expect.stringContaining('Unknown command') });
  });

  it('is shut without the secret, to a relayed request, and to anything not over loopback', async () => {
    expect(await runThroughDoor({ ...door(), secret: newDoorSecret() }, ['settings'])).toMatchObject({ ok: false, exitCode: 1, message: 'Forbidden' });
    const call = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}${DOOR_PATH}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-secret': secret, ...headers }, body: '{"args":["settings"]}',
    });
    expect((await call({})).status).toBe(200);
    expect((await call({ 'X-Forwarded-For': '203.0.113.9' })).status).toBe(403);
    expect((await call({ Forwarded: 'for=203.0.113.9' })).status).toBe(403);
    // Issue 39: whatever a proxy adds says it was relayed (nginx's X-Real-IP alone, a forwarded host or scheme, Via).
    for (const [name, value] of [['X-Real-IP', '203.0.113.9'], ['X-Forwarded-Host', 'bookings.example.co.uk'], ['X-Forwarded-Proto', 'https'],
      ['X-Forwarded-Port', '443'], ['Via', '1.1 proxy'], ['x-real-ip', '127.0.0.1']]) {
      expect((await call({ [name]: value })).status, name).toBe(403);
    }
    // A header that merely starts like one is no proxy's.
    expect((await call({ 'X-Forwarded': 'no' })).status).toBe(200);
    // No socket at all (not a loopback connection): shut, even with the secret.
    expect((await app.request(DOOR_PATH, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-secret': secret }, body: '{"args":["settings"]}',
    })).status).toBe(403);
  });

  it('takes only JSON: a form or text body is refused with 415 before it is read (issue 39)', async () => {
    const call = (type: string | null) => fetch(`http://127.0.0.1:${port}${DOOR_PATH}`, {
      method: 'POST', headers: { 'x-admin-secret': secret, ...(type ? { 'content-type': type } : {}) }, body: '{"args":["set-setting","GRACE_TIME","33"]}',
    });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', null]) {
      expect((await call(type)).status, String(type)).toBe(415);
    }
    expect(await runThroughDoor(door(), ['settings'])).toMatchObject({ ok: true, output: expect.not.stringMatching(/GRACE_TIME\s+33/) });
    expect((await call('application/json; charset=utf-8')).status).toBe(200);
  });

  it('refuses arguments that are not a list of words', async () => {
    const res = await fetch(`http://127.0.0.1:${port}${DOOR_PATH}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-secret': secret }, body: '{"args":"settings"}',
    });
    expect([res.status, (await res.json()).message]).toEqual([422, 'args must be a list of words']);
  });
});

describe('the door file', () => {
  it('is its user\'s alone, read back whole, and removed only by the server that wrote it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'door-'));
    try {
      expect(readDoor(dir)).toBeNull();
      const close = openDoor(dir, door());
      expect(statSync(path.join(dir, DOOR_FILE)).mode & 0o777).toBe(0o600);
      expect(readDoor(dir)).toEqual(door());
      // Another server's door written since is not removed by this one's stop.
      const other = { pid: process.pid + 1, port: 1, secret: newDoorSecret() };
      openDoor(dir, other);
      close();
      expect(JSON.parse(readFileSync(path.join(dir, DOOR_FILE), 'utf8'))).toEqual(other);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
