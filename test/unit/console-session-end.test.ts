// Issue 39's review: a console session that ends while an action is being saved (a cancel, a driver, a mail's retry,
// a change of the operator data) is refused by the server (401) with nothing done, and the sign-in page says so;
// a session that ends while a page loads says only that it ended. The console's real machine is run, with its
// calls answered here, and each step read as the sign-in page reads it (signedOutWhileSaving).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { operatorMachine, type ActionResult, type Board, type BookingPage, type DataSaved, type Filters, type StaffMember } from '../../machines/operator';
import { MESSAGES } from '../../src/domain/operatorDesk';
import { signedOutWhileSaving } from '../../src/web/views/operator/operatorActor';

const staff: StaffMember = { id: 1, email: 'ops@albion-executive.co.uk', name: 'Priya Shah', role: 'admin', company_name: null };
const REF = 'BK-ABCDEFGH';
const page: BookingPage = {
  booking: { booking: { booking_number: REF } } as BookingPage['booking'],
  desk: {
    status: 'confirmed', status_label: 'Confirmed', actions: ['assignDriver', 'cancel'], breakdown: [],
    payment: { method: 'card', status: 'paid', charge_id: null, intent_id: null, test: true, refundable: '51.00' },
    driver: null, cancel_reason: null, refund: null,
    needs: { company_id: 1, company_name: 'Albion Executive Cars', pickup_date: '2030-09-12', passengers: 2, wheelchair: false },
  },
  timeline: [],
};
const ended = <T,>() => Promise.reject<T>(Object.assign(new Error(MESSAGES.sessionEnded), { status: 401 }));
const never = <T,>() => new Promise<T>(() => {});

/** The console at `path`, signed in, whose calls answer as given; and what each step said, as the sign-in page reads it. */
function consoleAt(path: string, answers: { loadBooking?: () => Promise<BookingPage>; runAction?: () => Promise<ActionResult>; saveData?: () => Promise<DataSaved> }) {
  const actor = createActor(operatorMachine.provide({
    actors: {
      getSession: fromPromise(async (): Promise<StaffMember | null> => staff),
      loadFilters: fromPromise(never<Filters>),
      loadBoard: fromPromise(never<Board>),
      loadBooking: fromPromise(answers.loadBooking ?? (async () => page)),
      runAction: fromPromise(answers.runAction ?? never<ActionResult>),
      loadData: fromPromise(async (): Promise<unknown> => []),
      saveData: fromPromise(answers.saveData ?? never<DataSaved>),
    },
  }), { input: { location: { path, search: '' } } });
  const said: (boolean | null)[] = [];
  let before = actor.getSnapshot();
  actor.subscribe((after) => { said.push(signedOutWhileSaving(before, after)); before = after; });
  actor.start();
  return { actor, said: () => said.filter((x) => x !== null) };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a console session that ends', () => {
  it('while a cancellation is being saved: signed out, nothing saved', async () => {
    const { actor, said } = consoleAt(`/operator/bookings/${REF}`, { runAction: ended });
    await settle();
    expect(actor.getSnapshot().matches({ signedIn: { booking: 'ready' } })).toBe(true);
    actor.send({ type: 'action.start', action: 'cancel' });
    actor.send({ type: 'action.confirm', action: { kind: 'cancel', cancel: { reason: 'Vehicle off the road' } } });
    await settle();
    expect([actor.getSnapshot().matches('signedOut'), actor.getSnapshot().context.error?.message, said()]).toEqual([true, MESSAGES.sessionEnded, [true]]);
    actor.stop();
  });

  it('while a change of the operator data is being saved: the same', async () => {
    const { actor, said } = consoleAt('/operator/data', { saveData: ended });
    await settle();
    actor.send({ type: 'data.save', change: { kind: 'addStaff', email: 'sam@albion-executive.co.uk', name: 'Sam Lee', role: 'dispatcher' } });
    await settle();
    expect([actor.getSnapshot().matches('signedOut'), said()]).toEqual([true, [true]]);
    actor.stop();
  });

  it('while a page loads, or a dialog is open with nothing sent: only that it ended', async () => {
    const loading = consoleAt(`/operator/bookings/${REF}`, { loadBooking: ended });
    await settle();
    expect([loading.actor.getSnapshot().matches('signedOut'), loading.said()]).toEqual([true, [false]]);
    loading.actor.stop();

    // A dialog open, then the page loaded again (another address) and refused: nothing was being saved.
    let calls = 0;
    const open = consoleAt(`/operator/bookings/${REF}`, { loadBooking: () => (++calls === 1 ? Promise.resolve(page) : ended<BookingPage>()) });
    await settle();
    open.actor.send({ type: 'action.start', action: 'cancel' });
    open.actor.send({ type: 'url.changed', path: `/operator/bookings/${REF}`, search: '' });
    await settle();
    expect([open.actor.getSnapshot().matches('signedOut'), open.said()]).toEqual([true, [false]]);
    open.actor.stop();
  });

  it('says so in words a person reads', () => {
    expect(MESSAGES.sessionEndedUnsaved).toBe('Your session ended, so nothing was saved. Please sign in again.');
    expect(MESSAGES.sessionEnded).toBe('Please sign in again: your session has ended.');
  });
});
