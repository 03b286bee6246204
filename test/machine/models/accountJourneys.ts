// The model of machines/accountJourneys.ts (the corporate area's Journeys and expenses, issue 44 §3) that paths are
// generated from (test/machine/modelPaths.ts): the filters a booker asks for, the CSV, the server's answers, and the
// facts each state keeps, worked out from the events of the path. Replayed by ../accountJourneys.model.test.ts, and in
// Chromium by test/paths/accountJourneys.paths.test.ts.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { JOURNEYS_NOTICES, journeysMachine, type JourneysEvent } from '../../../machines/accountJourneys';
import { journeyFilterProblem, NO_FILTER, type JourneyFilter, type JourneysAnswer } from '../../../src/domain/expenses';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';
import { session } from '../fixtures';

export type Snapshot = SnapshotFrom<typeof journeysMachine>;

export const fetchJourneys = answers(journeysMachine, 'fetchJourneys');
export const downloadJourneysCsv = answers(journeysMachine, 'downloadJourneysCsv');

const filter = (f: Partial<JourneyFilter>): JourneysEvent => ({ type: 'journeys.filter', ...NO_FILTER, ...f });
/** The demo's PO number, and a month of dates. */
export const byPo = filter({ field: 'PO number', value: 'PO-4471' });
export const byMonth = filter({ from: '2030-05-01', to: '2030-05-31' });
/** Refused by the form's own rule: the last day before the first; a value with no field to look in. */
export const reversed = filter({ from: '2030-05-31', to: '2030-05-01' });
export const valueAlone = filter({ value: 'PO-4471' });
export const cleared = filter({});

export const journey = {
  booking_number: 'BK-ABCDEFGH', pick_up_date: '2030-05-10', pick_up_time: '08:00', pickup: "King's Cross Station, Euston Road, London N1 9AL",
  dropoff: 'Canary Wharf, One Canada Square, London E14 5AB', hourly_duration: null, passenger: 'Amelia Hart', vehicle: 'Executive Saloon',
  payment_method: 'account', status: 'completed', amount: '68.50', fields: [{ label: 'PO number', value: 'PO-4471' }], invoice: 'INV-000012',
};
/** An answer, named in the paths' titles by a `message` of its own that no comparison sees (not enumerable). */
export const named = <T extends object>(answer: T, words: string): T => Object.defineProperty(answer, 'message', { value: words, enumerable: false });
export const listed: JourneysAnswer = named({ fields: ['PO number', 'Cost centre'], journeys: [journey] }, 'a journey');
export const none: JourneysAnswer = named({ fields: ['PO number', 'Cost centre'], journeys: [] }, 'no journeys');

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
export const down = refusal('We could not reach the booking server. Please check your connection and try again.');
export const ended = refusal('Your session has ended. Please sign in again.', { status: 401 });
/** The server refuses a date on its field (the form's rule lets through only what the server would take, so asked of it). */
export const badDate = refusal('from: a date, like 2026-10-01.', { status: 422, field: 'from' });

export const EVENTS: ModelEvent<JourneysEvent>[] = [
  byPo, byMonth, reversed, valueAlone, cleared, { type: 'journeys.csv' }, { type: 'journeys.retry' },
  fetchJourneys.done(listed), fetchJourneys.done(none), fetchJourneys.fails(down), fetchJourneys.fails(ended), fetchJourneys.fails(badDate),
  downloadJourneysCsv.done(), downloadJourneysCsv.fails(down), downloadJourneysCsv.fails(ended),
];

type Answer = { type: string; output?: JourneysAnswer; error?: Error & { status?: number; field?: string } };
const isFetch = (e: ModelEvent | undefined, kind: 'done' | 'fails') => e?.type === (kind === 'done' ? fetchJourneys.done() : fetchJourneys.fails(null)).type;
const isCsv = (e: ModelEvent | undefined, kind: 'done' | 'fails') =>
  e?.type === (kind === 'done' ? downloadJourneysCsv.done() : downloadJourneysCsv.fails(null)).type;
const filterOf = (e: ModelEvent): JourneyFilter => {
  const { from, to, field, value } = e as Extract<JourneysEvent, { type: 'journeys.filter' }>;
  return { from, to, field, value };
};

/** The filter asked for last (one the rule lets through), and the filter of the list on screen (of the last list answered). */
function filters(trail: Trail<Snapshot>) {
  let asked = NO_FILTER;
  let shown = NO_FILTER;
  for (const { event } of trail) {
    if (event.type === 'journeys.filter' && journeyFilterProblem(filterOf(event)) === null) asked = filterOf(event);
    if (isFetch(event, 'done')) shown = asked;
  }
  return { asked, shown };
}

export function spec(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
  const c = s.context;
  const { asked, shown } = filters(trail);
  // The journeys are asked for with the session and the filter asked for last; the CSV is of the list on screen.
  const open = callsOpen(s);
  if (open.fetchJourneys) expect(open.fetchJourneys).toEqual({ session, filter: asked });
  if (open.downloadJourneysCsv) expect(open.downloadJourneysCsv).toEqual({ session, filter: shown });
  expect(c.shown).toEqual(shown);
  // The list is the server's last answer.
  const lists = trail.filter((x) => isFetch(x.event, 'done'));
  expect(c.answer).toEqual((lists.at(-1)?.event as Answer | undefined)?.output ?? null);
  // A filter the rule refuses is refused on its field, and nothing is asked.
  if (last?.type === 'journeys.filter') {
    const problem = journeyFilterProblem(filterOf(last));
    if (problem) {
      expect(c.error).toEqual({ message: problem.message, field: problem.field, status: 422 });
      expect(s.matches('loading')).toBe(false);
    } else expect([s.value, c.error, c.notice]).toEqual(['loading', null, null]);
  }
  // A call answered 401 ends the page: the account signs the booker out.
  if (last?.error?.status === 401) expect([s.status, s.output]).toEqual(['done', { sessionEnded: true }]);
  else expect(s.status).toBe('active');
  if (isFetch(last, 'fails') && last!.error!.status !== 401) {
    const { message, field, status } = last!.error!;
    // A filter the server refuses shows on its field, and the list on screen stays; anything else cannot show a list.
    if (field && lists.length) expect([s.value, c.error]).toEqual(['ready', { message, field, status }]);
    else expect([s.value, c.error?.message]).toEqual(['failed', message]);
  }
  // The CSV is of a list with journeys on screen: nothing is downloaded of an empty list.
  if (last?.type === 'journeys.csv') expect(s.matches('downloading')).toBe(lists.length > 0 && (lists.at(-1)!.event as Answer).output!.journeys.length > 0);
  if (isCsv(last, 'done')) expect([s.value, c.notice, c.error]).toEqual(['ready', JOURNEYS_NOTICES.downloaded, null]);
  if (isCsv(last, 'fails') && last!.error!.status !== 401) expect([s.value, c.error?.message, c.notice]).toEqual(['ready', last!.error!.message, null]);
  // One call at a time: nothing else is asked while the list loads or the file is prepared.
  if (s.matches('loading') || s.matches('downloading')) expect([s.can(byPo), s.can({ type: 'journeys.csv' })]).toEqual([false, false]);
}

/** The filter form's Show journeys and Clear, Download CSV under a list, Try again after a failure. */
export function offers(s: Snapshot): ModelEvent<JourneysEvent>[] {
  if (s.matches('ready')) return [byPo, cleared, ...(s.context.answer?.journeys.length ? [{ type: 'journeys.csv' } as const] : [])];
  if (s.matches('failed')) return [byPo, cleared, { type: 'journeys.retry' }];
  return [];
}

export const model: Model<typeof journeysMachine> = {
  name: 'account journeys machine',
  machine: journeysMachine,
  events: EVENTS,
  inputs: { "a booker's journeys": { session } },
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.error, s.context.notice, s.context.shown, s.context.asked, s.context.answer]),
  facts: spec,
  factsTitle: "issue 44's journeys: the filter's rule, the list and CSV of the same filter, each refusal where it belongs",
  offers,
  services: ['fetchJourneys', 'downloadJourneysCsv'],
  describeState: (s) => `${String(s.value)}${s.status === 'done' ? ' (session ended)' : ''}`,
  depth: () => 5,
};
