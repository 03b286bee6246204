// The model of machines/operatorCasework.ts (issue 43 §3, the console's Complaints and Lost property pages) that paths
// are generated from (test/machine/modelPaths.ts): the events a test may send, the addresses it starts from, and the
// facts each state keeps, worked out from the events of the path. The page runs as the console's child: what it tells
// the console (its address, a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { CASEWORK_NOTICES, caseworkMachine, type CaseworkContext, type CaseworkEvent } from '../../../machines/operatorCasework';
import type { ConsolePageInput } from '../../../machines/consolePage';
import { entryErrors, type CaseEntry, type CaseList, type ListStatus } from '../../../src/domain/casework';
import { ukToday } from '../../../src/domain/ukTime';
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

export const ID = 17;
export const NUMBER = 'C-0017';
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
/** A 422 that names no field: shown above the form. */
const notNow = refusal('This entry cannot be changed now.', { status: 422 });
/** A refusal that names a field but is no 422 (the request itself was refused): shown above the form, not on the field. */
const malformed = refusal('The request was not understood.', { status: 400, field: 'source' });
/** The long text of a search: the page keeps its first 100 characters. */
export const LONG_Q = `${'lost umbrella '.repeat(9)}end`;

export const EVENTS: ModelEvent<CaseworkEvent>[] = [
  list.done(rows), list.fails(sessionEnded), list.fails(down),
  // One entry answer (answers read alike by their words): a closed one and a company's are the hand-written tests'.
  one.done(openEntry), one.fails(sessionEnded), one.fails(down),
  create.done({ id: ID, number: NUMBER }), create.fails(sessionEnded), create.fails(unknownBooking), create.fails(down), create.fails(malformed),
  save.done({ id: ID, number: NUMBER }), save.fails(sessionEnded), save.fails(unknownBooking), save.fails(closedAlready), save.fails(notNow),
  // (An answer that e-mailed nobody reads alike: it is the hand-written tests'.)
  close.done({ number: NUMBER, emailed: 'rosa@example.com' }),
  close.fails(sessionEnded), close.fails(closedAlready), close.fails(down),
  csv.done(), csv.fails(sessionEnded), csv.fails(down),
  { type: 'list.show', status: 'closed', q: 'BK-7Q2M9XKD' },
  { type: 'list.show', status: 'all', q: LONG_Q },
  { type: 'entry.open', id: ID },
  { type: 'entry.new' },
  { type: 'entry.back' },
  { type: 'entry.save', form: COMPLAINT },
  { type: 'entry.close', outcome: ' We apologised. ' },
  { type: 'entry.close', outcome: '' },
  { type: 'csv', from: '2030-09-01', to: '2030-09-30' },
  { type: 'retry' },
];

type Shown = { screen: 'list'; status: ListStatus; q: string } | { screen: 'entry'; id: number } | { screen: 'new' };
/** The addresses a test opens the page at, and what each shows (issue 43 §3: ?status=&q=, ?id=, ?new=1). */
const ADDRESSES: { name: string; path: string; search: string; shows: Shown }[] = [
  { name: 'the Complaints link', path: '/operator/complaints', search: '', shows: { screen: 'list', status: 'open', q: '' } },
  { name: 'an entry of lost property', path: '/operator/lost-property', search: `?id=${ID}`, shows: { screen: 'entry', id: ID } },
  { name: 'a new complaint', path: '/operator/complaints', search: '?new=1', shows: { screen: 'new' } },
  { name: 'a new lost item', path: '/operator/lost-property', search: '?new=1', shows: { screen: 'new' } },
  { name: 'closed complaints found by a reference', path: '/operator/complaints', search: '?status=closed&q=BK-7Q2M9XKD', shows: { screen: 'list', status: 'closed', q: 'BK-7Q2M9XKD' } },
  // A search longer than the page takes: its first 100 characters.
  { name: 'all lost property, searched for with a long text', path: '/operator/lost-property', search: `?status=all&q=${encodeURIComponent(LONG_Q)}`,
    shows: { screen: 'list', status: 'all', q: LONG_Q.slice(0, 100) } },
  // Addresses no link makes (typed, or cut short): what the page cannot read is left out.
  { name: 'an empty status', path: '/operator/complaints', search: '?status=&q=', shows: { screen: 'list', status: 'open', q: '' } },
  { name: 'an unknown status', path: '/operator/complaints', search: '?status=pending', shows: { screen: 'list', status: 'open', q: '' } },
  { name: 'an id with letters before it', path: '/operator/complaints', search: `?id=x${ID}`, shows: { screen: 'list', status: 'open', q: '' } },
  { name: 'an id with letters after it, and new', path: '/operator/lost-property', search: `?id=${ID}x&new=1`, shows: { screen: 'new' } },
  { name: 'an id of ten digits', path: '/operator/complaints', search: '?id=1234567890', shows: { screen: 'list', status: 'open', q: '' } },
];
const MAIN_INPUTS = 4;

export const INPUTS: Record<string, ConsolePageInput> = Object.fromEntries(ADDRESSES.map((a) => [a.name, { location: { path: a.path, search: a.search }, staff }]));

const shownAt = (input: ConsolePageInput) => ADDRESSES.find((a) => a.path === input.location.path && a.search === input.location.search)!.shows;

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failure = (e: ModelEvent | undefined) => (/^xstate\.error\.actor\./.test(e?.type ?? '') ? (e as Answer).error! : null);
type Said = { error: CaseworkContext['error']; notice: string | null; fieldErrors: Record<string, string> };
const CLEARED: Said = { error: null, notice: null, fieldErrors: {} };
const saidIn = (c: CaseworkContext): Said => ({ error: c.error, notice: c.notice, fieldErrors: c.fieldErrors });
/** A refusal as the page shows it: a 422 naming a field under that field, any other above the form with its words, field and status. */
function refusalShown(error: NonNullable<Answer['error']>): Said {
  if (error.field && error.status === 422) return { error: null, notice: null, fieldErrors: { [error.field]: error.message } };
  return { error: { message: error.message, ...(error.field ? { field: error.field } : {}), ...(error.status ? { status: error.status } : {}) }, notice: null, fieldErrors: {} };
}
/** The form's own rules' messages for what was typed (the domain's rules, unit-tested): empty when it may be sent. */
const problemsOf = (register: CaseworkContext['register'], form: Record<string, string>) =>
  Object.fromEntries(Object.entries(entryErrors(register, form, ukToday())).filter((x): x is [string, string] => Boolean(x[1])));

/** What the path asked for: the list's filters, the entry open, the form, the outcome and the CSV's days last given. */
function given(trail: Trail<Snapshot>, input: ConsolePageInput) {
  const shown = shownAt(input);
  let status: ListStatus = shown.screen === 'list' ? shown.status : 'open';
  let q = shown.screen === 'list' ? shown.q : '';
  let id: number | null = shown.screen === 'entry' ? shown.id : null;
  let form: Record<string, string> | null = null;
  let outcome: string | null = null;
  let days: { from: string; to: string } | null = null;
  for (const { event: e } of trail) {
    if (e.type === 'list.show') ({ status, q } = { status: e.status, q: e.q.slice(0, 100) });
    if (e.type === 'list.show' || e.type === 'entry.new' || e.type === 'entry.back') id = null;
    if (e.type === 'entry.open') id = e.id;
    if (is(e, create.done())) id = ((e as Answer).output as { id: number }).id;
    if (e.type === 'entry.save') form = e.form;
    if (e.type === 'entry.close') outcome = e.outcome.trim();
    if (e.type === 'csv') days = { from: e.from, to: e.to };
  }
  return { status, q, id, form, outcome, days };
}

/** Each open call's answers, for the check that the state hears every answer of every call it waits for. */
const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  loadCasework: { answer: list, output: rows }, loadCaseworkEntry: { answer: one, output: openEntry },
  createCaseworkEntry: { answer: create, output: { id: ID, number: NUMBER } }, saveCaseworkEntry: { answer: save, output: { id: ID, number: NUMBER } },
  closeCaseworkEntry: { answer: close, output: { number: NUMBER, emailed: null } }, downloadCaseworkCsv: { answer: csv, output: undefined },
};

export function facts(s: Snapshot, trail: Trail<Snapshot>, input: ConsolePageInput) {
  const last = trail.at(-1);
  const e = last?.event;
  const c = s.context;
  const path = input.location.path;
  const shown = shownAt(input);
  const want = given(trail, input);
  const register = path === '/operator/lost-property' ? 'lost-property' : 'complaints';
  // The register is the address's, whatever happens on the page.
  expect(c.register).toBe(register);
  // The state the step came from (the first step: the page as it opened).
  const opening = shown.screen === 'list' ? { list: 'loading' } : shown.screen === 'entry' ? { entry: 'loading' } : { creating: 'editing' };
  const before = trail.at(-2)?.state;
  const was = (value: object) => (before ? before.matches(value as never) : JSON.stringify(opening) === JSON.stringify(value));
  const saidBefore = before ? saidIn(before.context) : CLEARED;
  const at = (search: string) => ({ type: 'page.location', location: { path, search } });
  const listAt = () => {
    const search = new URLSearchParams({ ...(want.status !== 'open' ? { status: want.status } : {}), ...(want.q ? { q: want.q } : {}) }).toString();
    return at(search ? `?${search}` : '');
  };

  // What the step must lead to: the state, what the page says (messages, the fields' messages) and what it tells the console.
  const error = failure(e);
  let value: unknown;
  let said: Said;
  let told: unknown[] = [];
  if (!e) [value, said] = [opening, CLEARED];
  else if (error?.status === 401) {
    // A 401 from any call: the console is told (it leaves the page); nothing else changes or is said.
    [value, said, told] = [before?.value ?? opening, saidBefore, [{ type: 'page.sessionEnded' }]];
  } else if (error) {
    said = refusalShown(error);
    value = is(e, list.fails(null)) ? { list: 'failed' } : is(e, one.fails(null)) ? { entry: 'failed' } : is(e, create.fails(null)) ? { creating: 'editing' }
      : is(e, csv.fails(null)) ? { list: 'ready' }
      // Closed meanwhile: the entry again, as it is now, with why.
        : error.status === 409 ? { entry: 'loading' } : { entry: 'ready' };
  } else if (e.type === 'list.show') [value, said, told] = [{ list: 'loading' }, CLEARED, [listAt()]];
  else if (e.type === 'entry.open') [value, said, told] = [{ entry: 'loading' }, CLEARED, [at(`?id=${e.id}`)]];
  else if (e.type === 'entry.new') [value, said, told] = [{ creating: 'editing' }, CLEARED, [at('?new=1')]];
  else if (e.type === 'entry.back') [value, said, told] = [{ list: 'loading' }, CLEARED, [listAt()]];
  else if (e.type === 'retry') [value, said] = [was({ list: 'failed' }) ? { list: 'loading' } : { entry: 'loading' }, CLEARED];
  else if (e.type === 'csv') [value, said] = [{ list: 'downloading' }, CLEARED];
  else if (e.type === 'entry.save') {
    // The forms' rules: a form they refuse is not sent; its messages show on their fields. Only an entry the staff may edit.
    const problems = problemsOf(register, e.form);
    const creating = was({ creating: 'editing' });
    expect(creating || Boolean(before?.context.entry?.may.edit), 'a save is taken only of a new entry or one the staff may edit').toBe(true);
    if (Object.keys(problems).length) [value, said] = [creating ? { creating: 'editing' } : { entry: 'ready' }, { error: null, notice: null, fieldErrors: problems }];
    else [value, said] = [creating ? { creating: 'sending' } : { entry: 'saving' }, CLEARED];
  } else if (e.type === 'entry.close') {
    // Closing: the office only, and never without an outcome (the field says so, nothing is sent).
    expect(Boolean(before?.context.entry?.may.close), 'a close is taken only of an entry the staff may close').toBe(true);
    if (!e.outcome.trim()) [value, said] = [{ entry: 'ready' }, { error: null, notice: null, fieldErrors: { outcome: 'Enter the outcome.' } }];
    else [value, said] = [{ entry: 'closing' }, CLEARED];
  } else if (is(e, list.done())) {
    [value, said] = [{ list: 'ready' }, saidBefore];
    expect(c.list, 'the list answered').toEqual((e as Answer).output);
  } else if (is(e, one.done())) {
    [value, said] = [{ entry: 'ready' }, saidBefore];
    expect(c.entry, 'the entry answered').toEqual((e as Answer).output);
  } else if (is(e, create.done())) {
    const { id, number } = (e as Answer).output as { id: number; number: string };
    [value, said, told] = [{ entry: 'loading' }, { ...CLEARED, notice: CASEWORK_NOTICES.opened(number) }, [at(`?id=${id}`)]];
  } else if (is(e, save.done())) [value, said] = [{ entry: 'loading' }, { ...CLEARED, notice: CASEWORK_NOTICES.saved }];
  else if (is(e, close.done())) {
    const { emailed } = (e as Answer).output as { emailed: string | null };
    [value, said] = [{ entry: 'loading' }, { ...CLEARED, notice: CASEWORK_NOTICES.closed(emailed) }];
  } else if (is(e, csv.done())) [value, said] = [{ list: 'ready' }, { ...CLEARED, notice: CASEWORK_NOTICES.downloaded }];
  else throw new Error(`no fact for ${e.type}`);
  const where = e ? `after ${e.type}` : 'on opening';
  expect(s.value, `${where}: the state`).toEqual(value);
  expect(saidIn(c), `${where}: what the page says`).toEqual(said);
  if (last) expect(last.effects.toParent, `${where}: what the console is told`).toEqual(told);
  if (error?.status === 401) return;

  // The filters on screen are the address's or the last asked for; an entry is open only on its page.
  expect([c.status, c.q], 'the filters').toEqual([want.status, want.q]);
  if (s.matches('entry')) expect(c.id, 'the entry open').toBe(want.id);
  else expect([c.id, c.entry], 'no entry open off its page').toEqual([null, null]);
  // Each call asks for exactly what the person gave, and the state waits for no other.
  const calls: Record<string, unknown> = {};
  if (s.matches({ list: 'loading' })) calls.loadCasework = { register, status: want.status, q: want.q };
  if (s.matches({ list: 'downloading' })) calls.downloadCaseworkCsv = { register, ...want.days! };
  if (s.matches({ entry: 'loading' })) calls.loadCaseworkEntry = { register, id: want.id };
  if (s.matches({ entry: 'saving' })) calls.saveCaseworkEntry = { register, id: want.id, form: want.form };
  if (s.matches({ entry: 'closing' })) calls.closeCaseworkEntry = { register, id: want.id, outcome: want.outcome };
  if (s.matches({ creating: 'sending' })) calls.createCaseworkEntry = { register, form: want.form };
  const open = callsOpen(s);
  expect(open, 'the calls open, with what they ask').toEqual(calls);
  // Every answer of a call it waits for is heard: done, refused, or the session ended.
  for (const src of Object.keys(open)) {
    const { answer, output } = ANSWERS[src];
    for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
  }
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
  if (s.matches({ entry: 'ready' }) && s.context.entry?.may.edit) out.push({ type: 'entry.save', form: COMPLAINT });
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
    s.value, s.context.register, s.context.status, s.context.q, s.context.id, s.context.entry?.may ?? null, Object.keys(s.context.fieldErrors), s.context.error?.status ?? null,
    s.context.error !== null, s.context.notice !== null,
  ]),
  facts,
  factsTitle: "issue 43's registers: the addresses, the forms' rules, closing once with an outcome",
  offers,
  deciding: ['createCaseworkEntry', 'saveCaseworkEntry', 'closeCaseworkEntry', 'downloadCaseworkCsv'],
  services: ['loadCasework', 'loadCaseworkEntry', 'createCaseworkEntry', 'saveCaseworkEntry', 'closeCaseworkEntry', 'downloadCaseworkCsv'],
  describeState: (s) => JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, '.'),
  // The four ways in are walked far; the other addresses only as far as what they open at.
  depth: (_, i) => (i < MAIN_INPUTS ? 5 : 1),
};
