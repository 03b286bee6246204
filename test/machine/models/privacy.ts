// The model of machines/operatorPrivacy.ts (issue 43 §4, the console's privacy requests page) that paths are generated
// from (test/machine/modelPaths.ts): the events a test may send, the address it starts from, and the facts each state
// keeps, worked out from the events of the path. The page runs as the console's child: what it tells the console (its
// address, once; a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { privacyMachine, PRIVACY_NOTICES, type PrivacyEvent } from '../../../machines/operatorPrivacy';
import type { ConsolePageInput } from '../../../machines/consolePage';
import { KEPT_ON_ERASE, privacyEmailProblem, type EraseAnswer, type PrivacyExport } from '../../../src/domain/retention';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { staff } from './operator';

export type Snapshot = SnapshotFrom<typeof privacyMachine>;

export const lookup = answers(privacyMachine, 'exportPersonalData');
export const file = answers(privacyMachine, 'saveExportFile');
export const erase = answers(privacyMachine, 'erasePersonalData');

export const ADA = 'ada.lovelace@example.com';
const exported = (over: Partial<PrivacyExport> = {}): PrivacyExport => ({
  email: ADA, exported_at: '2030-09-12T10:00:00.000Z', kept_on_erase: KEPT_ON_ERASE, erase: { allowed: true, refusal: null },
  retention: { records_months: 12, invoice_years: 6 },
  sections: [{ table: 'bookings', title: 'Bookings', holds: 'addresses', rows: [{ booking_number: 'BK-1' }] }],
  ...over,
});
export const HELD = exported();
export const COMING = exported({ erase: { allowed: false, refusal: 'This address cannot be erased yet: booking BK-2 is still to come.' } });
export const NOTHING = exported({ sections: [] });
export const ERASED: EraseAnswer = { bookings: 1, already: 0, passengers: 1, invoices_kept: 0, kept: KEPT_ON_ERASE };

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const stillToCome = refusal('This address cannot be erased yet: booking BK-2 is still to come.', { status: 422, field: 'email' });

export const EVENTS: ModelEvent<PrivacyEvent>[] = [
  { type: 'privacy.lookup', email: ADA },
  // Refused on the page, before any call: nothing typed, and no address.
  { type: 'privacy.lookup', email: ' ' },
  { type: 'privacy.lookup', email: 'ada' },
  lookup.done(HELD),
  lookup.done(COMING),
  lookup.done(NOTHING),
  lookup.fails(sessionEnded),
  lookup.fails(down),
  { type: 'privacy.download' },
  file.done(),
  file.fails(down),
  { type: 'privacy.erase' },
  { type: 'privacy.cancel' },
  { type: 'privacy.confirm' },
  erase.done(ERASED),
  erase.fails(sessionEnded),
  erase.fails(stillToCome),
];

export const INPUTS: Record<string, ConsolePageInput> = {
  'the Privacy link': { location: { path: '/operator/privacy', search: '' }, staff },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failed = (e: ModelEvent | undefined) => is(e, lookup.fails(null)) || is(e, file.fails(null)) || is(e, erase.fails(null));
const ended = (e: ModelEvent | undefined) => failed(e) && (e as Answer).error?.status === 401;

/** Each call's answers, for the check that the state hears every answer of every call it waits for. */
const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  exportPersonalData: { answer: lookup, output: HELD }, saveExportFile: { answer: file, output: undefined }, erasePersonalData: { answer: erase, output: ERASED },
};

/** The address looked up last: each lookup of an address the page takes (the domain's rule, unit-tested). */
function addressAskedFor(trail: Trail<Snapshot>): string {
  let email = '';
  for (const { event: e } of trail) if (e.type === 'privacy.lookup' && privacyEmailProblem(e.email) === undefined) email = e.email.trim();
  return email;
}

export function facts(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1);
  const e = last?.event;
  const open = callsOpen(s);
  // Each call is about the address last looked up; the file is what the page shows.
  if (s.matches('looking') && !ended(e)) expect(open).toEqual({ exportPersonalData: { email: addressAskedFor(trail) } });
  if (s.matches('erasing') && !ended(e)) expect(open).toEqual({ erasePersonalData: { email: addressAskedFor(trail) } });
  if (s.matches('downloading')) expect(open).toEqual({ saveExportFile: { found: s.context.found } });
  // Every answer of a call it waits for is heard: done, refused, or the session ended.
  if (!ended(e)) {
    for (const src of Object.keys(open)) {
      const { answer, output } = ANSWERS[src];
      for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
    }
  }
  // The page opens empty: no address, nothing found or erased, nothing said.
  if (!last) expect([s.value, s.context]).toEqual(['idle', { email: '', found: null, erased: null, error: null, notice: null }]);
  // Download and Erase start afresh: what the page said before goes.
  if (e?.type === 'privacy.download' || e?.type === 'privacy.erase') expect([s.context.error, s.context.notice]).toEqual([null, null]);
  // The page never tells the console another address (an e-mail address must not reach the URL); a 401 signs it out.
  if (ended(e)) expect(last!.effects.toParent).toEqual([{ type: 'page.sessionEnded' }]);
  else if (last) expect(last.effects.toParent).toEqual([]);
  if (e?.type === 'privacy.lookup' && (trail.at(-2)?.state.matches('idle') || trail.at(-2)?.state.matches('found') || trail.at(-2)?.state.matches('erased') || trail.length === 1)) {
    const problem = privacyEmailProblem(e.email);
    if (problem) expect([s.context.error]).toEqual([{ message: problem, field: 'email', status: 422 }]);
    else expect([s.value, s.context.found, s.context.erased, s.context.email]).toEqual(['looking', null, null, e.email.trim()]);
  }
  if (is(e, lookup.done())) expect([s.value, s.context.found]).toEqual(['found', (e as Answer).output]);
  if (is(e, lookup.fails(null)) && !ended(e)) expect([s.value, s.context.error?.message]).toEqual(['idle', (e as Answer).error!.message]);
  if (is(e, file.done())) expect([s.value, s.context.notice]).toEqual(['found', PRIVACY_NOTICES.downloaded]);
  if (is(e, file.fails(null))) expect([s.value, s.context.error?.message]).toEqual(['found', (e as Answer).error!.message]);
  // Erase: only what may be erased (something held, no booking to come), confirmed first, then the answer; a refusal keeps the page.
  if (s.matches('found')) expect(s.can({ type: 'privacy.erase' })).toBe(s.context.found!.erase.allowed && s.context.found!.sections.length > 0);
  if (e?.type === 'privacy.erase') expect(s.value).toBe('confirming');
  if (e?.type === 'privacy.cancel') expect(s.value).toBe('found');
  if (is(e, erase.done())) expect([s.value, s.context.erased, s.context.found]).toEqual(['erased', ERASED, null]);
  if (is(e, erase.fails(null)) && !ended(e)) {
    const { message, field, status } = (e as Answer).error!;
    expect([s.value, s.context.error, s.context.found]).toEqual(['found', { message, field, status }, trail.at(-2)!.state.context.found]);
  }
  // Nothing else is asked while a call is open.
  if ((s.matches('looking') || s.matches('erasing') || s.matches('downloading')) && !ended(e)) {
    expect(s.can({ type: 'privacy.lookup', email: ADA })).toBe(false);
    expect(s.can({ type: 'privacy.erase' })).toBe(false);
  }
}

/** What the page offers: the address form always (but while waiting); Download and Erase once found; the window's two buttons. */
export const offers = (s: Snapshot): ModelEvent<PrivacyEvent>[] => (
  s.matches('found') ? [{ type: 'privacy.lookup', email: ADA }, { type: 'privacy.download' }]
    : s.matches('confirming') ? [{ type: 'privacy.confirm' }, { type: 'privacy.cancel' }]
      : s.matches('idle') || s.matches('erased') ? [{ type: 'privacy.lookup', email: ADA }] : []);

export const model: Model<typeof privacyMachine> = {
  name: 'privacy requests page machine',
  machine: privacyMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.context.found?.erase.allowed ?? null, s.context.found?.sections.length ?? null, s.context.error?.field ?? null,
    s.context.error !== null, s.context.notice !== null]),
  facts,
  offers,
  factsTitle: "issue 43's privacy requests page",
  services: ['exportPersonalData', 'saveExportFile', 'erasePersonalData'],
  // Looking up, saving the file and erasing: the page waits for each answer.
  deciding: ['exportPersonalData', 'saveExportFile', 'erasePersonalData'],
  describeState: (s) => String(s.value),
  depth: () => 6,
};
