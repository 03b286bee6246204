// The worker's shared test server (test/e2e/globalSetup.ts) as the paths use it: the operator's settings switched through
// the admin route and put back after each path, calls failed on request (test/e2e/e2eAdmin.ts), and
// the API called as the site calls it, to open a page with real data.
import { connect, sharedServerInfo } from '../e2e/harness';
import { DEMO_SETTINGS } from '../../src/server/operator/seed';
import type { Fault } from '../e2e/e2eAdmin';

/** More tries of one call than a page makes before the person acts again. */
const DROPPED_UNTIL_CLEARED = 1000;

export const API_HEADERS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

export interface PathServer {
  url: string;
  dataDir: string;
  admin(...args: string[]): Promise<string>;
  /** Switches an operator setting for this path. */
  setting(name: string, value: string): Promise<void>;
  /** Asks the server to fail the next matching call (a dropped call: every try of it, as Chromium tries again). */
  fault(fault: Fault): Promise<void>;
  /** Forgets the failures asked for that no call has met (a hold stays until it is released). */
  clearFaults(): Promise<void>;
  /** Lets calls held by a 'delay' fault go on now: those for this method and path, or all of them. */
  release(call: { method: string; path: string } | 'all'): Promise<void>;
  /** How many calls for this method and path the server holds now. */
  heldNow(call: { method: string; path: string }): Promise<number>;
  /** Calls the API as the site does; the parsed body, or throws with the server's message. */
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  /** Puts the settings back, forgets unused faults and lets held calls go. */
  reset(): Promise<void>;
}

export function pathServer(): PathServer {
  const info = sharedServerInfo();
  const server = connect(info);
  const changed = new Set<string>();
  const post = (path: string, body: unknown) => fetch(`${info.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-e2e-admin-token': info.token }, body: JSON.stringify(body),
  }).then(async (res) => { if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`); });
  return {
    url: info.url,
    dataDir: info.dataDir,
    admin: server.admin,
    async setting(name, value) {
      changed.add(name);
      await server.admin('set-setting', name, value);
    },
    // A dropped call fails every time it is sent until the person acts again (the runner clears the faults then):
    // Chromium sends it again on each kept-alive connection that closes on it, and a page still loading its files
    // keeps opening more of those, so ten was not always enough.
    fault: (fault) => post('/__e2e__/fault', { times: fault.kind === 'drop' ? DROPPED_UNTIL_CLEARED : 1, ...fault }),
    clearFaults: () => post('/__e2e__/fault', { clear: true }),
    release: (call) => post('/__e2e__/fault', { release: call }),
    async heldNow(call) {
      const res = await fetch(`${info.url}/__e2e__/fault`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-e2e-admin-token': info.token }, body: JSON.stringify({ count: call }),
      });
      return ((await res.json()) as { held: number }).held;
    },
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${info.url}/api/v1${path}`, {
        method, headers: { ...API_HEADERS, ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data = (await res.json()) as { message?: string };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.message ?? ''}`);
      return data as never;
    },
    async reset() {
      await this.clearFaults();
      await this.release('all');
      for (const name of changed) await server.admin('set-setting', name, DEMO_SETTINGS[name]);
      changed.clear();
    },
  };
}
