// The model of machines/operatorRecords.ts (issue 43 §2, the console's Records page) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, the addresses it starts from, and the facts each state keeps,
// worked out from the events of the path. The page runs as the console's child: what it tells the console (its address,
// a 401) is part of each step.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { recordsMachine, RECORDS_NOTICES, type RecordsEvent } from '../../../machines/operatorRecords';
import type { ConsolePageInput } from '../../../machines/consolePage';
import { recordsRangeProblem, type RecordsAnswer, type RecordsRange } from '../../../src/domain/bookingRecords';
import { MESSAGES } from '../../../src/domain/operatorDesk';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { staff } from './operator';

export type Snapshot = SnapshotFrom<typeof recordsMachine>;

export const load = answers(recordsMachine, 'loadBookingRecords');
export const csv = answers(recordsMachine, 'downloadRecordsCsv');

export const TODAY: RecordsRange = { from: '2030-09-12', to: '2030-09-12' };
export const WEEK: RecordsRange = { from: '2030-09-09', to: '2030-09-15' };
export const answerFor = (range: RecordsRange): RecordsAnswer => ({
  operator: { name: 'Albion Executive Cars', address: '27 Old Gloucester Street, London WC1N 3AX', licence_number: '0041287', licensing_authority: 'Transport for London' },
  range, company: null, records: [],
});
const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
const sessionEnded = refusal(MESSAGES.sessionEnded, { status: 401 });
const down = refusal('We could not reach the booking server. Please check your connection and try again.');
const tooLong = refusal('Choose at most 92 days at a time.', { status: 422, field: 'to' });

export const EVENTS: ModelEvent<RecordsEvent>[] = [
  load.done(answerFor(TODAY)),
  load.done(answerFor(WEEK)),
  load.fails(sessionEnded),
  load.fails(down),
  load.fails(tooLong),
  { type: 'records.show', range: WEEK },
  // Refused on the page, before any call: the last day before the first, and a range too long.
  { type: 'records.show', range: { from: '2030-09-15', to: '2030-09-09' } },
  { type: 'records.show', range: { from: '2030-01-01', to: '2030-12-31' } },
  { type: 'records.csv' },
  csv.done(),
  csv.fails(sessionEnded),
  csv.fails(down),
  { type: 'retry' },
];

export const INPUTS: Record<string, ConsolePageInput> = {
  'the Records link (no range: today)': { location: { path: '/operator/records', search: '' }, staff },
  'an address with a week': { location: { path: '/operator/records', search: `?from=${WEEK.from}&to=${WEEK.to}` }, staff },
  // One day named by its first only: the range is that day.
  'an address with a first day only': { location: { path: '/operator/records', search: `?from=${TODAY.from}` }, staff },
};

type Answer = { type: string; output?: RecordsAnswer; error?: { message: string; status?: number; field?: string } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;
const failedCall = (e: ModelEvent | undefined) => is(e, load.fails(null)) || is(e, csv.fails(null));
/** A call answered 401: the console leaves the page (it stops this machine where it is). */
const ended = (e: ModelEvent | undefined) => failedCall(e) && (e as Answer).error?.status === 401;

/** Each call's answers, for the check that the state hears every answer of every call it waits for. */
const ANSWERS: Record<string, { answer: ReturnType<typeof answers>; output: unknown }> = {
  loadBookingRecords: { answer: load, output: answerFor(TODAY) }, downloadRecordsCsv: { answer: csv, output: undefined },
};

/** The range asked for last: the address's, then each range the page sent that it can show, then the server's answer. */
function rangeAskedFor(trail: Trail<Snapshot>, input: ConsolePageInput): RecordsRange {
  const p = new URLSearchParams(input.location.search);
  let range: RecordsRange = { from: p.get('from') ?? '', to: p.get('to') ?? p.get('from') ?? '' };
  for (const { event: e } of trail) {
    if (is(e, load.done())) range = (e as Answer).output!.range;
    if (e.type === 'records.show') {
      const r = (e as Extract<RecordsEvent, { type: 'records.show' }>).range;
      // The page takes a range the domain's rule allows (unit-tested in test/unit/booking-records.test.ts).
      if (recordsRangeProblem(r) === null) range = r;
    }
  }
  return range;
}

export function facts(s: Snapshot, trail: Trail<Snapshot>, input: ConsolePageInput) {
  const last = trail.at(-1);
  const e = last?.event;
  // Each call asks for the range last asked for (the address's, or one the page could show).
  const open = callsOpen(s);
  if (s.matches('loading') && !ended(e)) expect(open).toEqual({ loadBookingRecords: rangeAskedFor(trail, input) });
  if (s.matches('downloading') && !ended(e)) expect(open).toEqual({ downloadRecordsCsv: rangeAskedFor(trail, input) });
  // Every answer of a call it waits for is heard: done, refused, or the session ended.
  if (!ended(e)) {
    for (const src of Object.keys(open)) {
      const { answer, output } = ANSWERS[src];
      for (const a of [answer.done(output), answer.fails(down), answer.fails(sessionEnded)]) expect(s.can(a as never), `${src}: ${a.type} is heard`).toBe(true);
    }
  }
  // Try again, another range, Download CSV: the page asks again, and what it said before goes.
  const before = trail.at(-2)?.state;
  if (e?.type === 'retry') expect([s.value, s.context.error, s.context.notice]).toEqual(['loading', null, null]);
  if (e?.type === 'records.csv') expect([s.value, s.context.error, s.context.notice]).toEqual(['downloading', null, null]);
  const shown = e?.type === 'records.show' && recordsRangeProblem((e as Extract<RecordsEvent, { type: 'records.show' }>).range) === null;
  if (shown && before?.matches('failed')) expect([s.value, s.context.error, s.context.notice]).toEqual(['loading', null, null]);
  // Loaded: the records and the range the server answered, and the console shows that range in the address bar.
  if (is(e, load.done())) {
    const { range } = (e as Answer).output!;
    expect([s.value, s.context.range, s.context.answer?.range]).toEqual(['ready', range, range]);
    expect(last!.effects.toParent).toEqual([{ type: 'page.location', location: { path: '/operator/records', search: `?from=${range.from}&to=${range.to}` } }]);
  }
  // A 401 from either call: the console is told, and signs out (the page says nothing itself).
  if (failedCall(e) && (e as Answer).error?.status === 401) {
    expect(last!.effects.toParent).toEqual([{ type: 'page.sessionEnded' }]);
  } else if (last && !is(e, load.done())) {
    expect(last.effects.toParent).toEqual([]);
  }
  // The records could not be loaded: the message, and Try again.
  if (is(e, load.fails(null)) && (e as Answer).error?.status !== 401) expect([s.value, s.context.error?.message]).toEqual(['failed', (e as Answer).error!.message]);
  // A range the page cannot show is refused on its field, and nothing is asked for.
  // (In `failed` too: the message shows on the field, and the page stays where it was.)
  if (e?.type === 'records.show' && (before?.matches('ready') || before?.matches('failed'))) {
    const r = (e as Extract<RecordsEvent, { type: 'records.show' }>).range;
    const where = before.matches('ready') ? 'ready' : 'failed';
    if (r.to < r.from) expect([s.value, s.context.error]).toEqual([where, { message: 'The last day is before the first.', field: 'to', status: 422 }]);
    else if (r.from === '2030-01-01') expect([s.value, s.context.error?.message, s.context.error?.field]).toEqual([where, 'Choose at most 92 days at a time.', 'to']);
    else expect(s.value).toBe('loading');
  }
  if (is(e, csv.done())) expect([s.value, s.context.notice]).toEqual(['ready', RECORDS_NOTICES.downloaded]);
  if (is(e, csv.fails(null)) && (e as Answer).error?.status !== 401) expect([s.value, s.context.error?.message]).toEqual(['ready', (e as Answer).error!.message]);
  // The file is asked for once at a time; the range cannot change while either call is open.
  if ((s.matches('downloading') || s.matches('loading')) && !ended(e)) {
    expect(s.can({ type: 'records.csv' })).toBe(false);
    expect(s.can({ type: 'records.show', range: WEEK })).toBe(false);
  }
}

/** What the page offers: the range form, Print and Download CSV once loaded; Try again after a failure. */
export const offers = (s: Snapshot): ModelEvent<RecordsEvent>[] => (s.matches('ready') ? [{ type: 'records.show', range: WEEK }, { type: 'records.csv' }]
  : s.matches('failed') ? [{ type: 'retry' }, { type: 'records.show', range: WEEK }] : []);

export const model: Model<typeof recordsMachine> = {
  name: 'records page machine',
  machine: recordsMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.context.range, s.context.error?.field ?? null, s.context.error !== null, s.context.notice !== null]),
  facts,
  offers,
  factsTitle: "issue 43's records page",
  services: ['loadBookingRecords', 'downloadRecordsCsv'],
  // The CSV's download: the page waits for it (loading shows the page's own message, with the range form).
  deciding: ['downloadRecordsCsv'],
  describeState: (s) => String(s.value),
  depth: (_, i) => (i === 0 ? 5 : 3),
};
