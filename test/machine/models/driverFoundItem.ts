// The model of machines/driverFoundItem.ts (a driver's found item, issue 43 §3) that paths are generated from
// (test/machine/modelPaths.ts): what the driver types and presses, the server's answers, and the facts each state
// keeps, worked out from the events of the path. Replayed by ../driverFoundItem.model.test.ts, and in Chromium by
// test/paths/driverFoundItem.paths.test.ts.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { driverFoundItemMachine, type FoundItemEvent } from '../../../machines/driverFoundItem';
import { foundItemErrors } from '../../../src/domain/casework';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';

export type Snapshot = SnapshotFrom<typeof driverFoundItemMachine>;

export const reportFound = answers(driverFoundItemMachine, 'reportFound');
export const REF = 'BK-ABCDEFGH';
export const NUMBER = 'LP-0042';

export const item: Extract<FoundItemEvent, { type: 'found.submit' }> = { type: 'found.submit', description: 'A black umbrella', found_place: 'Back seat' };
/** Nothing typed: the form's own rule refuses it, and nothing is sent. */
export const blank: FoundItemEvent = { type: 'found.submit', description: '', found_place: '' };

const refusal = (message: string, extra: { status?: number; field?: string } = {}) => Object.assign(new Error(message), extra);
export const down = refusal('We could not reach the booking server. Please check your connection and try again.');
export const ended = refusal('Please sign in again: your session has ended.', { status: 401 });
export const tooLong = refusal('Keep what you found to 1000 characters at most (this is 1001).', { status: 422, field: 'description' });
export const notNow = refusal('An item can be reported found once the passenger has been on board.', { status: 409 });

export const EVENTS: ModelEvent<FoundItemEvent>[] = [
  item, blank, { type: 'found.cancel' },
  reportFound.done({ number: NUMBER }), reportFound.fails(down), reportFound.fails(ended), reportFound.fails(tooLong), reportFound.fails(notNow),
];

type Answer = { type: string; output?: { number: string }; error?: { message: string; status?: number; field?: string } };
const isDone = (e: ModelEvent | undefined) => e?.type === reportFound.done().type;
const isFail = (e: ModelEvent | undefined) => e?.type === reportFound.fails(null).type;

export function spec(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1)?.event as (ModelEvent & Answer) | undefined;
  const c = s.context;
  const submits = trail.filter((x) => x.event.type === 'found.submit').map((x) => x.event as Extract<FoundItemEvent, { type: 'found.submit' }>);
  // The report is sent for the job it was opened on, with what was typed last.
  const open = callsOpen(s).reportFound;
  if (open) expect(open).toEqual({ reference: REF, description: submits.at(-1)!.description, found_place: submits.at(-1)!.found_place });
  // A form the rules refuse is not sent: each field's message shows, and the form stays.
  if (last?.type === 'found.submit') {
    const problems = foundItemErrors(last as Extract<FoundItemEvent, { type: 'found.submit' }>);
    if (Object.keys(problems).length) expect([s.value, c.fieldErrors, s.hasTag('busy')]).toEqual(['editing', problems, false]);
    else expect([s.value, c.fieldErrors, c.error, s.hasTag('busy')]).toEqual(['sending', {}, null, true]);
  }
  // Sent: the form closes with the entry's number for the job's page.
  if (isDone(last)) expect([s.status, s.output]).toEqual(['done', { kind: 'reported', number: NUMBER }]);
  if (last?.type === 'found.cancel') expect([s.status, s.output]).toEqual(['done', { kind: 'cancelled' }]);
  if (isFail(last)) {
    const error = last!.error!;
    // The session ended: the page signs the driver out.
    if (error.status === 401) expect([s.status, s.output]).toEqual(['done', { kind: 'signedOut' }]);
    // A field refused by the server shows under it; anything else above the form. What was typed stays.
    else if (error.field) expect([s.value, c.fieldErrors, c.error]).toEqual(['editing', { [error.field]: error.message }, null]);
    else expect([s.value, c.fieldErrors, c.error?.message]).toEqual(['editing', {}, error.message]);
    if (error.status !== 401) expect(c.form).toEqual({ description: submits.at(-1)!.description, found_place: submits.at(-1)!.found_place });
  }
  // Nothing is sent twice: a second press while one is on its way is not taken.
  if (s.matches('sending')) expect([s.can(item), s.can({ type: 'found.cancel' })]).toEqual([false, false]);
}

/** The form's Send and Cancel. */
export const offers = (s: Snapshot): ModelEvent<FoundItemEvent>[] => (s.matches('editing') ? [item, { type: 'found.cancel' }] : []);

export const model: Model<typeof driverFoundItemMachine> = {
  name: 'driver found item machine',
  machine: driverFoundItemMachine,
  events: EVENTS,
  inputs: { "a job's found item": { reference: REF } },
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.fieldErrors, s.context.error?.message ?? null, s.context.form]),
  facts: spec,
  factsTitle: "issue 43's found item: the form's rules, sent once, each refusal where it belongs",
  offers,
  deciding: ['reportFound'],
  services: ['reportFound'],
  describeState: (s) => `${String(s.value)}${s.status === 'done' ? ` (${s.output?.kind})` : ''}`,
  depth: () => 4,
};
