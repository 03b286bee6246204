// A page opened as a returning visitor: what the site itself would have written to browser storage (SPEC 3's keys,
// through src/web/storage.ts's own writers, run here against an in-memory Storage), written into the page before
// the URL is typed.
import { createActor } from 'xstate';
import { bookingMachine, type StoredBooking } from '../../machines/booking';
import type { Session } from '../../machines/account';
import type { Settings } from '../../src/domain/settings';
import type { PathPage } from './pathRunner';

class MemoryStorage {
  readonly items = new Map<string, string>();
  get length() { return this.items.size; }
  key(i: number) { return [...this.items.keys()][i] ?? null; }
  getItem(k: string) { return this.items.get(k) ?? null; }
  setItem(k: string, v: string) { this.items.set(k, String(v)); }
  removeItem(k: string) { this.items.delete(k); }
  clear() { this.items.clear(); }
}

export interface Visit {
  stored?: StoredBooking;
  session?: Session | null;
  /** Settings as an earlier visit stored them (appSettings). */
  settings?: Settings;
}

/** The local and session storage entries the site writes for this visit. */
export async function entriesOf(visit: Visit) {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  const g = globalThis as unknown as { localStorage?: Storage; sessionStorage?: Storage };
  const saved = { local: g.localStorage, session: g.sessionStorage };
  g.localStorage = local as unknown as Storage;
  g.sessionStorage = session as unknown as Storage;
  try {
    const storage = await import('../../src/web/storage');
    const stored = visit.stored ?? {};
    const context = createActor(bookingMachine, { input: { path: '/', settings: visit.settings ?? {}, stored, session: visit.session ?? null } })
      .getSnapshot().context;
    storage.persist({ ...context, ...stored, registration: stored.registration ?? context.registration } as typeof context);
    if (stored.booking) storage.clearStoredBooking({ ...context, booking: stored.booking });
    if (visit.session) storage.storeSession(visit.session);
    if (visit.settings) storage.storeSettings(visit.settings);
    return { local: Object.fromEntries(local.items), session: Object.fromEntries(session.items) };
  } finally {
    g.localStorage = saved.local;
    g.sessionStorage = saved.session;
  }
}

/** Opens the site's origin, writes the visit's storage, then types the URL. */
export async function openAsReturningVisitor(p: PathPage, url: string, visit: Visit) {
  const entries = await entriesOf(visit);
  // A vehicle picture: a document of the site that does not start the app.
  await p.page.goto(`${p.server.url}/storage/vehicles/saloon.svg`);
  await p.page.evaluate((e) => {
    for (const [k, v] of Object.entries(e.local)) localStorage.setItem(k, v);
    for (const [k, v] of Object.entries(e.session)) sessionStorage.setItem(k, v);
  }, entries);
  await p.typeUrl(url);
}
