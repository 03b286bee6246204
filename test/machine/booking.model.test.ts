// Model-based tests of machines/booking.ts: paths generated from the machine
// reach every (state, event) edge, and each path is replayed on a real actor
// whose invoked services and clock are controlled by the test. Every
// transition the machine defines must be taken at least once, and SPEC 2's
// step rules must hold in every state reached.
import { describe, expect, it, afterAll } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';
import { TestModel } from 'xstate/graph';
import { bookingMachine, pathOf, type BookingEvent, type BookingInput, type BookingSnapshot } from '../../machines/booking';
import { hasRegistration } from '../../machines/bookingSteps';
import { bookingForm, bookingOk, bookingRefused, client, hourlyForm, prices, quoteRequest, registration, settings } from './fixtures';

const PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/paymentSuccessView', '/quoteView', '/forgot_password', '/no-such-page'];

type ModelEvent = BookingEvent
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown }
  | { type: `xstate.after.${string}` };

const EVENTS: ModelEvent[] = [
  ...PATHS.map((path) => ({ type: 'url.changed' as const, path })),
  { type: 'home.typeChanged', bookingType: 'hourly' },
  { type: 'home.typeChanged', bookingType: 'milleage' },
  { type: 'home.hourlyChanged', form: hourlyForm },
  { type: 'home.submit', bookingType: 'milleage', form: bookingForm },
  { type: 'home.submit', bookingType: 'hourly', form: hourlyForm },
  { type: 'error.dismissed' },
  { type: 'quotation.select', vehicle: prices[1], quantity: 2, selectionType: 'selection' },
  { type: 'quotation.select', vehicle: prices[1], quantity: 3, selectionType: 'lowest' },
  { type: 'details.changed', mode: 'new_client', registration },
  { type: 'details.submit', mode: 'guest_login', registration },
  { type: 'details.submit', mode: 'new_client', registration: client },
  { type: 'details.submit', mode: 'existing_client', registration: client },
  { type: 'payment.payInCar' },
  { type: 'quote.submit', request: quoteRequest },
  { type: 'xstate.done.actor.loadSettings', output: settings },
  { type: 'xstate.error.actor.loadSettings', error: new Error('offline') },
  { type: 'xstate.done.actor.calculatePrice', output: { prices, trip: { via_miles: 20.4, time_duration: 3000 } } },
  { type: 'xstate.error.actor.calculatePrice', error: new Error('Pickup time is within the grace period') },
  { type: 'xstate.error.actor.calculatePrice', error: new Error('Sorry we don\'t have any vehicle with requested options') },
  { type: 'xstate.done.actor.checkEmail', output: { success: true, found: true, message: 'Email found. Proceeding to payment.' } },
  { type: 'xstate.done.actor.checkEmail', output: { success: false, found: false, message: 'Email not found' } },
  { type: 'xstate.done.actor.checkEmail', output: { success: false, found: true, message: 'The password is not correct' } },
  { type: 'xstate.error.actor.checkEmail', error: new Error('Network down') },
  { type: 'xstate.done.actor.createBooking', output: bookingOk },
  { type: 'xstate.done.actor.createBooking', output: bookingRefused },
  { type: 'xstate.error.actor.createBooking', error: new Error('Network down') },
  { type: 'xstate.done.actor.sendQuote', output: { success: true } },
  { type: 'xstate.done.actor.sendQuote', output: { success: false } },
  { type: 'xstate.error.actor.sendQuote', error: new Error('Network down') },
  { type: 'reset.requestCode', email: 'amelia@example.com' },
  { type: 'reset.verifyCode', code: '123456' },
  { type: 'reset.back' },
  { type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-2' },
  { type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-3' },
  { type: 'xstate.done.actor.requestResetCode', output: { success: true, message: 'A reset code has been sent to your email.' } },
  { type: 'xstate.error.actor.requestResetCode', error: new Error('Email not found') },
  { type: 'xstate.done.actor.verifyResetCode', output: { success: true, message: 'Code verified successfully' } },
  { type: 'xstate.error.actor.verifyResetCode', error: new Error('Invalid reset code') },
  { type: 'xstate.done.actor.resetPassword', output: { success: true, message: 'Password has been reset successfully' } },
  { type: 'xstate.error.actor.resetPassword', error: new Error('Reset code has expired') },
  { type: 'xstate.after.1000.booking.home.urgent' },
  { type: 'xstate.after.2000.booking.quote.notice' },
];

const INPUTS: Record<string, BookingInput> = {
  'a first visit': { path: '/', stored: {} },
  'a return visit with every step stored': {
    path: '/paymentview',
    stored: { settings, bookingType: 'milleage', bookingForm, priceDetails: prices, selectedVehicle: prices[0], quantity: 1, registration },
  },
  'prices stored, the details page asked for': {
    path: '/personalDetailView', stored: { settings, bookingForm, priceDetails: prices },
  },
  'a vehicle stored, the payment page asked for': {
    path: '/paymentview', stored: { settings, bookingForm, priceDetails: prices, selectedVehicle: prices[0], quantity: 2 },
  },
  'a client whose password was not stored, the payment page asked for': {
    path: '/paymentview',
    stored: { settings, bookingForm, priceDetails: prices, selectedVehicle: prices[0], registrationMode: 'existing_client', registration },
  },
  'a reload of the confirmation': { path: '/paymentSuccessView', stored: { booking: bookingOk.data } },
  'the forgot-password page asked for, with a vehicle chosen': {
    path: '/forgot_password', stored: { settings, bookingForm, priceDetails: prices, selectedVehicle: prices[0], registrationMode: 'existing_client' },
  },
  'the quote page asked for': { path: '/quoteView', stored: { bookingForm } },
};

// States are told apart by what the guards read, not by every field of context.
const serialize = (s: BookingSnapshot) => JSON.stringify([
  s.value, pathOf(s), s.context.priceDetails !== null, s.context.selectedVehicle !== null,
  hasRegistration(s.context), s.context.registrationMode, s.context.booking !== null,
]);
const serializeEvent = (e: ModelEvent) => JSON.stringify(e, (k, v) => (v instanceof Error ? v.message : v));
const handled = (s: BookingSnapshot, e: ModelEvent) => bookingMachine.getTransitionData(s as never, e as never).length > 0;

// Every transition the machine defines, by source state, event and position.
function transitionId(t: AnyTransitionDefinition): string {
  const list = t.eventType === '' ? t.source.always ?? [] : t.source.transitions.get(t.eventType) ?? [];
  return `${t.source.id} ${t.eventType || '(always)'} #${list.indexOf(t)}`;
}
function allTransitions(node: AnyStateNode): string[] {
  const own = [...node.transitions.values()].flat().concat(node.always ?? []).map(transitionId);
  return own.concat(Object.values(node.states).flatMap(allTransitions));
}
const defined = new Set(allTransitions(bookingMachine.root));
const taken = new Set<string>();

/** SPEC 2: each step needs the earlier steps' data, and has its own route. */
function holdsSpecInvariants(s: BookingSnapshot) {
  const c = s.context;
  const path = pathOf(s);
  if (s.matches('quotation')) expect([path, c.priceDetails !== null]).toEqual(['/quotationview', true]);
  if (s.matches('details')) expect([path, c.priceDetails !== null, c.selectedVehicle !== null]).toEqual(['/personalDetailView', true, true]);
  if (s.matches('payment')) {
    expect([path, c.priceDetails !== null, c.selectedVehicle !== null, c.registration !== null])
      .toEqual(['/paymentview', true, true, true]);
    // A client can only pay with the password typed in this visit.
    if (c.registrationMode !== 'guest_login') expect(c.registration!.password).toBeTruthy();
  }
  if (s.matches('success')) expect([path, c.booking !== null]).toEqual(['/paymentSuccessView', true]);
  if (s.matches('quote')) expect(path).toBe('/quoteView');
  if (s.matches('forgotPassword')) expect(path).toBe('/forgot_password');
  if (s.matches('home')) expect(['/', '/home', '/booktripview']).toContain(path);
  if (s.matches('quotation') && c.selectionType === 'lowest') expect(c.quantity).toBe(1);
}

/** A real actor whose invoked services wait until the test settles them, on a simulated clock. */
function system(input: BookingInput) {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const controlled = (id: string) => fromPromise<any, any>(() => new Promise((resolve, reject) => pending.set(id, { resolve, reject })));
  const calls: string[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(bookingMachine.provide({
    actors: {
      loadSettings: controlled('loadSettings'), calculatePrice: controlled('calculatePrice'), checkEmail: controlled('checkEmail'),
      createBooking: controlled('createBooking'), sendQuote: controlled('sendQuote'),
      requestResetCode: controlled('requestResetCode'), verifyResetCode: controlled('verifyResetCode'),
      resetPassword: controlled('resetPassword'),
    },
    actions: { persist: () => { calls.push('persist'); }, clearStoredBooking: () => { calls.push('clearStoredBooking'); } },
  }), {
    input,
    clock,
    inspect: (ev) => {
      if (ev.type === '@xstate.microstep' && ev.actorRef === actor) {
        for (const t of (ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) taken.add(transitionId(t));
      }
    },
  });
  actor.start();
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    actor, calls, clock,
    async exec(event: ModelEvent) {
      const after = /^xstate\.after\.(\d+)\./.exec(event.type);
      if (after) {
        if (handled(actor.getSnapshot(), event)) clock.increment(Number(after[1]));
        return;
      }
      const m = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      if (!m) { actor.send(event as BookingEvent); return; }
      const waiting = pending.get(m[2]);
      // A settled service in the model is only an event if the service is running in the system.
      if (!waiting || !actor.getSnapshot().children[m[2]]) return;
      pending.delete(m[2]);
      if (m[1] === 'done') waiting.resolve((event as { output: unknown }).output);
      else waiting.reject((event as { error: unknown }).error);
      await settle();
    },
  };
}

describe.each(Object.entries(INPUTS))('the booking machine, starting from %s', (name, input) => {
  // A first visit explores the whole graph; the other storages are there for where the page opens, so
  // their paths stop a few steps after it (the rest of their graph is the first visit's again).
  const depth = name === 'a first visit' ? Infinity : 3;
  const model = new TestModel(bookingMachine, {
    // Only what the state handles: an unhandled event changes nothing (checked once below).
    events: ((state: BookingSnapshot) => EVENTS.filter((e) => handled(state, e))) as never,
    serializeState: serialize as never,
    serializeEvent: serializeEvent as never,
    input,
    limit: 20_000,
  });
  const shortest = new Map(model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => [serialize(p.state as BookingSnapshot), p]));
  const adjacency = model.getAdjacencyMap();
  const initial = Object.values(adjacency)[0].state as BookingSnapshot;
  shortest.set(serialize(initial), { steps: [] } as never);
  const edges = Object.values(adjacency).flatMap((v) =>
    (Object.values(v.transitions) as { event: unknown; state: unknown }[])
      .map((t) => ({ from: v.state as BookingSnapshot, event: t.event as ModelEvent, to: t.state as BookingSnapshot })))
    .filter((e) => (shortest.get(serialize(e.from))?.steps.length ?? Infinity) < depth);

  it(`replays a path through each of the ${edges.length} edges on a real actor`, async () => {
    for (const edge of edges) {
      const prefix = shortest.get(serialize(edge.from));
      expect(prefix, `no path to ${serialize(edge.from)}`).toBeDefined();
      const steps = [...prefix!.steps.map((s) => ({ event: s.event as ModelEvent, state: s.state as BookingSnapshot })), { event: edge.event, state: edge.to }];
      const sut = system(input);
      await new Promise((r) => setImmediate(r));
      const trail: string[] = [];
      for (const step of steps) {
        trail.push(serializeEvent(step.event).slice(0, 80));
        await sut.exec(step.event);
        const got = sut.actor.getSnapshot();
        expect(serialize(got), `after ${trail.join(' -> ')}`).toBe(serialize(step.state));
        expect(pathOf(got)).toBe(pathOf(step.state));
        holdsSpecInvariants(got);
      }
      sut.actor.stop();
    }
  });
});

describe('what the machine does on its way', () => {
  it('ignores what the current step does not handle', async () => {
    const sut = system(INPUTS['a first visit']);
    await sut.exec({ type: 'xstate.done.actor.loadSettings', output: settings });
    for (const e of EVENTS.filter((x) => !x.type.startsWith('xstate.') && !handled(sut.actor.getSnapshot(), x))) {
      const before = serialize(sut.actor.getSnapshot());
      sut.actor.send(e as BookingEvent);
      expect(serialize(sut.actor.getSnapshot()), e.type).toBe(before);
    }
  });

  it('persists the form before pricing and clears storage on the confirmation', async () => {
    const sut = system(INPUTS['a first visit']);
    await sut.exec({ type: 'xstate.done.actor.loadSettings', output: settings });
    await sut.exec({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect(sut.calls).toEqual(['persist', 'persist']);
    await sut.exec({ type: 'xstate.done.actor.calculatePrice', output: { prices, trip: null } });
    sut.actor.send({ type: 'quotation.select', vehicle: prices[1], quantity: 3, selectionType: 'selection' });
    expect(sut.actor.getSnapshot().context).toMatchObject({ selectedVehicle: prices[1], quantity: 3 });
    sut.actor.send({ type: 'details.submit', mode: 'guest_login', registration });
    sut.actor.send({ type: 'payment.payInCar' });
    const key = sut.actor.getSnapshot().context.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await sut.exec({ type: 'xstate.done.actor.createBooking', output: bookingRefused });
    expect(sut.actor.getSnapshot().context.error).toBe('This vehicle is no longer available');
    sut.actor.send({ type: 'error.dismissed' });
    sut.actor.send({ type: 'payment.payInCar' });
    // A second attempt on the same payment step reuses the key, so the server can tell it is a retry.
    expect(sut.actor.getSnapshot().context.idempotencyKey).toBe(key);
    await sut.exec({ type: 'xstate.done.actor.createBooking', output: bookingOk });
    expect(pathOf(sut.actor.getSnapshot())).toBe('/paymentSuccessView');
    expect(sut.calls.at(-1)).toBe('clearStoredBooking');
    expect(sut.actor.getSnapshot().context).toMatchObject({ priceDetails: null, selectedVehicle: null, registration: null });
  });

  it('shows the urgent notice, moves to /quoteView after 1 s and closes the notice after 3 s (SPEC 8)', async () => {
    const sut = system(INPUTS['a first visit']);
    await sut.exec({ type: 'xstate.done.actor.loadSettings', output: settings });
    sut.actor.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    await sut.exec({ type: 'xstate.error.actor.calculatePrice', error: new Error('Address is banned') });
    expect(sut.actor.getSnapshot().value).toEqual({ home: 'urgent' });
    sut.clock.increment(999);
    expect(pathOf(sut.actor.getSnapshot())).toBe('/');
    sut.clock.increment(1);
    expect(sut.actor.getSnapshot().value).toEqual({ quote: 'notice' });
    expect(pathOf(sut.actor.getSnapshot())).toBe('/quoteView');
    sut.clock.increment(1999);
    expect(sut.actor.getSnapshot().value).toEqual({ quote: 'notice' });
    sut.clock.increment(1);
    expect(sut.actor.getSnapshot().value).toEqual({ quote: 'form' });
  });

  it('walks the forgot-password steps and returns to the details with the new password noted (SPEC 4)', async () => {
    const sut = system(INPUTS['the forgot-password page asked for, with a vehicle chosen']);
    await sut.exec({ type: 'xstate.done.actor.loadSettings', output: settings });
    expect(pathOf(sut.actor.getSnapshot())).toBe('/forgot_password');
    sut.actor.send({ type: 'reset.requestCode', email: 'amelia@example.com' });
    await sut.exec({ type: 'xstate.done.actor.requestResetCode', output: { success: true, message: 'A reset code has been sent to your email.' } });
    expect(sut.actor.getSnapshot().value).toEqual({ forgotPassword: 'code' });
    sut.actor.send({ type: 'reset.back' });
    expect(sut.actor.getSnapshot().value).toEqual({ forgotPassword: 'email' });
    sut.actor.send({ type: 'reset.requestCode', email: 'amelia@example.com' });
    await sut.exec({ type: 'xstate.done.actor.requestResetCode', output: { success: true, message: 'sent' } });
    sut.actor.send({ type: 'reset.verifyCode', code: '123456' });
    await sut.exec({ type: 'xstate.done.actor.verifyResetCode', output: { success: true, message: 'Code verified successfully' } });
    sut.actor.send({ type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-3' });
    expect(sut.actor.getSnapshot().context.error).toBe('Passwords do not match');
    sut.actor.send({ type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-2' });
    await sut.exec({ type: 'xstate.done.actor.resetPassword', output: { success: true, message: 'Password has been reset successfully' } });
    const after = sut.actor.getSnapshot();
    expect(pathOf(after)).toBe('/personalDetailView');
    expect(after.context).toMatchObject({ notice: 'Password has been reset successfully', registrationMode: 'existing_client' });
    expect(after.context.registration?.email).toBe('amelia@example.com');
  });

  it('opens on the hourly tab when both tabs show, unless another was saved (SPEC 2)', async () => {
    const open = async (s: Record<string, string>, stored?: 'milleage' | 'hourly') => {
      const sut = system({ path: '/', stored: { bookingType: stored } });
      await sut.exec({ type: 'xstate.done.actor.loadSettings', output: s });
      return sut.actor.getSnapshot().context.bookingType;
    };
    expect(await open({ HOURLY_RATE_STATUS: 'enable' })).toBe('hourly');
    expect(await open({ HOURLY_RATE_STATUS: 'disable' })).toBe('milleage');
    expect(await open({ HOURLY_RATE_STATUS: 'enable', IS_QUOTATION: 'enable' })).toBe('hourly');
    expect(await open({ HOURLY_RATE_STATUS: 'enable' }, 'milleage')).toBe('milleage');
    expect(await open({ HOURLY_RATE_STATUS: 'disable' }, 'hourly')).toBe('milleage');
  });
});

afterAll(() => {
  const missing = [...defined].filter((t) => !taken.has(t));
  const pct = ((defined.size - missing.length) / defined.size) * 100;
  console.log(`Booking machine transition coverage: ${defined.size - missing.length}/${defined.size} (${pct.toFixed(1)}%)`);
  if (missing.length) console.log(`Not taken:\n  ${missing.join('\n  ')}`);
  expect(missing).toEqual([]);
});
