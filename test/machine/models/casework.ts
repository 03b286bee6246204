// The model of machines/operatorCasework.ts (issue 43 §3, the console's Complaints and Lost property pages) that paths
// are generated from (test/machine/modelPaths.ts): the events a test may send, the addresses it starts from, and the
// facts each state keeps, worked out from the events of the path. The page runs as the console's child: what it tells
// the console (its address, a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { CASEWORK_NOTICES, caseworkMachine, type CaseworkEvent } from '../../../machines/operatorCasework';
import type { ConsolePageInput } from '../../../machines/consolePage';
import type { CaseEntry, CaseList } from '../../../src/domain/casework';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { staff } from './operator';

export type Snapshot = SnapshotFrom<typeof caseworkMachine>;

export const list = answers(caseworkMachine, 'loadCasework');
export const one = answers(caseworkMachine, 'loadCaseworkEntry');
export const create = answers(caseworkMachine, 'createCaseworkEntry');
export const save = answers(caseworkMachine, 'saveCaseworkEntry');
export const close = answers(caseworkMachine, 'closeCaseworkEntry');
export const csv = answers(caseworkMachine, 'downloadCaseworkCsv');

export const ID = 7;
export const NUMBER = 'C-0007';
/** A complaint the office's form may send (no lost item: it says neither found nor reported, nor what the item is). */
export const COMPLAINT = {
  booking_reference: 'BK-7Q2M9XKD', booking_date: '2030-09-12', contact_name: 'Rosa Park', contact_email: 'rosa@example.com', contact_phone: '',
  source: 'phone', nature: 'The driver was late.', investigation: '', action_taken: '', notes: '',
};
const answered = (status: 'open' | 'closed', may: CaseEntry['may']): CaseEntry => ({
  register: 'complaints', entry: { id: ID, number: NUMBER, status, booking_id: 12, ...COMPLAINT }, history: [], may,
});
export const openEntry = answered('open', { edit: true, close: true });
export const closedEntry = answered('closed', { edit: false, close: false });
/** As a company's staff see it: they work on it, the office closes it. */
export const theirEntry = answered('open', { edit: true, close: false });
const rows: CaseList = { register: 'complaints', title: 'Complaints', rows: [], total: 0 };

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const unknownBooking = refusal('No booking has this reference (or it is not one of yours). Check it, or leave it empty.', { status: 422, field: 'booking_reference' });
const closedAlready = refusal('This entry was closed already (by someone else, or a moment ago).', { status: 409 });

export const EVENTS: ModelEvent<CaseworkEvent>[] = [
  list.done(rows), list.fails(sessionEnded), list.fails(down),
  // One entry answer (answers read alike by their words): a closed one and a company's are the hand-written tests'.
  one.done(openEntry), one.fails(sessionEnded), one.fails(down),
  create.done({ id: ID, number: NUMBER }), create.fails(sessionEnded), create.fails(unknownBooking),
  save.done({ id: ID, number: NUMBER }), save.fails(sessionEnded), save.fails(unknownBooking), save.fails(closedAlready),
  close.done({ number: NUMBER, emailed: 'rosa@example.com' }), close.fails(sessionEnded), close.fails(closedAlready), close.fails(down),
  csv.done(), csv.fails(sessionEnded), csv.fails(down),
  { type: 'list.show', status: 'closed', q: 'BK-7Q2M9XKD' },
  { type: 'entry.open', id: ID },
  { type: 'entry.new' },
  { type: 'entry.back' },
  { type: 'entry.save', form: COMPLAINT },
  { type: 'entry.close', outcome: 'We apologised.' },
  { type: 'entry.close', outcome: '' },
  { type: 'csv', from: '2030-09-01', to: '2030-09-30' },
  { type: 'retry' },
];

export const INPUTS: Record<string, ConsolePageInput> = {
  'the Complaints link': { location: { path: '/operator/complaints', search: '' }, staff },
  'an entry of lost property': { location: { path: '/operator/lost-property', search: `?id=${ID}` }, staff },
  'a new complaint': { location: { path: '/operator/complaints', search: '?new=1' }, staff },
  'a new lost item': { location: { path: '/operator/lost-property', search: '?new=1' }, staff },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failure = (e: ModelEvent | undefined) => (/^xstate\.error\.actor\./.test(e?.type ?? '') ? (e as Answer).error! : null);

export function facts(s: Snapshot, trail: Trail<Snapshot>, input: ConsolePageInput) {
  const last = trail.at(-1);
  const e = last?.event;
  const prev = trail.at(-2)?.state;
  const c = s.context;
  const path = input.location.path;
  // The register is the address's, whatever happens on the page.
  expect(c.register).toBe(path === '/operator/lost-property' ? 'lost-property' : 'complaints');
  // A 401 from any call: the console is told (it leaves the page); nothing else is said.
  const error = failure(e);
  if (error?.status === 401) { expect(last!.effects.toParent).toEqual([{ type: 'page.sessionEnded' }]); return; }
  // The console shows the page's address: the list (with its filters), an entry's ?id=, or ?new=1.
  const told = last?.effects.toParent.at(-1) as { type: string; location: { path: string; search: string } } | undefined;
  if (told) expect(told.location.path).toBe(path);
  if (told && s.matches('entry')) expect(told.location.search).toBe(`?id=${c.id}`);
  if (told && s.matches('creating')) expect(told.location.search).toBe('?new=1');
  if (told && s.matches('list')) expect(told.location.search).toBe(c.status === 'closed' ? `?status=closed&q=${c.q}` : '');
  // Each call asks for what the page shows.
  const open = callsOpen(s);
  if (open.loadCasework) expect(open.loadCasework).toEqual({ register: c.register, status: c.status, q: c.q });
  if (open.loadCaseworkEntry) expect(open.loadCaseworkEntry).toEqual({ register: c.register, id: ID });
  if (open.createCaseworkEntry) expect(open.createCaseworkEntry).toEqual({ register: c.register, form: COMPLAINT });
  if (open.saveCaseworkEntry) expect(open.saveCaseworkEntry).toEqual({ register: c.register, id: ID, form: COMPLAINT });
  if (open.closeCaseworkEntry) expect(open.closeCaseworkEntry).toEqual({ register: c.register, id: ID, outcome: 'We apologised.' });
  // The forms' rules: a form they refuse is not sent; its messages show on their fields.
  if (e?.type === 'entry.save' && prev?.matches({ creating: 'editing' })) {
    if (c.register === 'complaints') expect(s.value).toEqual({ creating: 'sending' });
    else expect([s.value, Object.keys(c.fieldErrors).sort()]).toEqual([{ creating: 'editing' }, ['description', 'kind']]);
  }
  if (e?.type === 'entry.save' && prev?.matches({ entry: 'ready' })) {
    const may = prev.context.entry!.may;
    if (!may.edit) expect(s.value).toEqual({ entry: 'ready' });
    else expect(s.value).toEqual(c.register === 'complaints' ? { entry: 'saving' } : { entry: 'ready' });
  }
  // Closing: the office only, and never without an outcome (the field says so, nothing is sent).
  if (e?.type === 'entry.close' && prev?.matches({ entry: 'ready' })) {
    const { outcome } = e as Extract<CaseworkEvent, { type: 'entry.close' }>;
    const may = prev.context.entry!.may.close;
    if (!may) expect(s.value).toEqual({ entry: 'ready' });
    else if (!outcome) expect([s.value, c.fieldErrors]).toEqual([{ entry: 'ready' }, { outcome: 'Enter the outcome.' }]);
    else expect(s.value).toEqual({ entry: 'closing' });
  }
  if (is(e, close.done())) expect([s.value, c.notice]).toEqual([{ entry: 'loading' }, CASEWORK_NOTICES.closed('rosa@example.com')]);
  // Closed meanwhile: the entry again, as it is now, with why.
  if (error?.status === 409) expect([s.value, c.error?.message]).toEqual([{ entry: 'loading' }, closedAlready.message]);
  if (error?.field) expect([s.value, c.fieldErrors, c.error]).toEqual([prev?.matches({ creating: 'sending' }) ? { creating: 'editing' } : { entry: 'ready' }, { [error.field]: error.message }, null]);
  if (is(e, save.done())) expect([s.value, c.id, c.notice]).toEqual([{ entry: 'loading' }, ID, CASEWORK_NOTICES.saved]);
  if (is(e, create.done())) expect([s.value, c.id, c.notice]).toEqual([{ entry: 'loading' }, ID, CASEWORK_NOTICES.opened(NUMBER)]);
  if (is(e, csv.done())) expect([s.value, c.notice]).toEqual([{ list: 'ready' }, CASEWORK_NOTICES.downloaded]);
  // Nothing is sent twice: while a call that changes the record is open, no other is started.
  if (s.hasTag('busy')) {
    expect(s.can({ type: 'entry.save', form: COMPLAINT })).toBe(false);
    expect(s.can({ type: 'entry.close', outcome: 'We apologised.' })).toBe(false);
    expect(s.can({ type: 'csv', from: '2030-09-01', to: '2030-09-30' })).toBe(false);
  }
}

/** What the page offers: the filters, New, Download CSV and the entries on the list; Back, the form and Close on an entry. */
export const offers = (s: Snapshot): ModelEvent<CaseworkEvent>[] => {
  const out: ModelEvent<CaseworkEvent>[] = [];
  if (s.matches('list')) out.push({ type: 'list.show', status: 'closed', q: 'BK-7Q2M9XKD' }, { type: 'entry.new' });
  if (s.matches({ list: 'ready' })) out.push({ type: 'csv', from: '2030-09-01', to: '2030-09-30' });
  if (s.matches('entry') || s.matches('creating')) out.push({ type: 'entry.back' });
  if (s.matches({ entry: 'ready' }) && s.context.entry?.may.close) out.push({ type: 'entry.close', outcome: 'We apologised.' });
  if (s.matches({ creating: 'editing' })) out.push({ type: 'entry.save', form: COMPLAINT });
  if (s.matches({ list: 'failed' }) || s.matches({ entry: 'failed' })) out.push({ type: 'retry' });
  return out;
};

export const model: Model<typeof caseworkMachine> = {
  name: 'casework page machine',
  machine: caseworkMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([
    s.value, s.context.register, s.context.status, s.context.id, s.context.entry?.may ?? null, Object.keys(s.context.fieldErrors), s.context.error?.status ?? null,
    s.context.notice !== null,
  ]),
  facts,
  factsTitle: "issue 43's registers: the addresses, the forms' rules, closing once with an outcome",
  offers,
  deciding: ['createCaseworkEntry', 'saveCaseworkEntry', 'closeCaseworkEntry', 'downloadCaseworkCsv'],
  services: ['loadCasework', 'loadCaseworkEntry', 'createCaseworkEntry', 'saveCaseworkEntry', 'closeCaseworkEntry', 'downloadCaseworkCsv'],
  describeState: (s) => JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, '.'),
  depth: () => 5,
};
