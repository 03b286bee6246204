// Model-based tests of machines/booking.ts: paths generated from the machine
// reach every (state, event) edge, and each path is replayed on a real actor
// whose invoked services are controlled by the test. Every transition the
// machine defines must be taken at least once.
import { describe, expect, it, afterAll } from 'vitest';
import { createActor, fromPromise, type AnyStateNode, type AnyTransitionDefinition } from 'xstate';
import { TestModel } from 'xstate/graph';
import { bookingMachine, pathOf, type BookingEvent, type BookingInput, type BookingSnapshot } from '../../machines/booking';
import { bookingForm, bookingOk, bookingRefused, prices, registration, settings } from './fixtures';

const PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/paymentSuccessView', '/no-such-page'];

type ModelEvent = BookingEvent
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown };

const EVENTS: ModelEvent[] = [
  ...PATHS.map((path) => ({ type: 'url.changed' as const, path })),
  { type: 'home.submit', bookingType: 'milleage', form: bookingForm },
  { type: 'error.dismissed' },
  { type: 'quotation.select', vehicle: prices[1], quantity: 2 },
  { type: 'details.submit', registration },
  { type: 'payment.payInCar' },
  { type: 'xstate.done.actor.loadSettings', output: settings },
  { type: 'xstate.error.actor.loadSettings', error: new Error('offline') },
  { type: 'xstate.done.actor.calculatePrice', output: { prices, trip: { via_miles: 20.4, time_duration: 3000 } } },
  { type: 'xstate.error.actor.calculatePrice', error: new Error('Sorry we don\'t have any vehicle with requested options') },
  { type: 'xstate.done.actor.createBooking', output: bookingOk },
  { type: 'xstate.done.actor.createBooking', output: bookingRefused },
  { type: 'xstate.error.actor.createBooking', error: new Error('Network down') },
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
  'a reload of the confirmation': { path: '/paymentSuccessView', stored: { booking: bookingOk.data } },
};

const serialize = (s: BookingSnapshot) => JSON.stringify([
  s.value, s.context.homePath, s.context.priceDetails !== null, s.context.selectedVehicle !== null,
  s.context.registration !== null, s.context.booking !== null,
]);
const serializeEvent = (e: ModelEvent) => JSON.stringify(e, (k, v) => (v instanceof Error ? v.message : v));

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
  }
  if (s.matches('success')) expect([path, c.booking !== null]).toEqual(['/paymentSuccessView', true]);
  if (s.matches('home')) expect(['/', '/home', '/booktripview']).toContain(path);
}

/** A real actor whose invoked services wait until the test resolves or rejects them. */
function system(input: BookingInput) {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const controlled = (id: string) => fromPromise<any, any>(() => new Promise((resolve, reject) => pending.set(id, { resolve, reject })));
  const calls: string[] = [];
  const actor = createActor(bookingMachine.provide({
    actors: { loadSettings: controlled('loadSettings'), calculatePrice: controlled('calculatePrice'), createBooking: controlled('createBooking') },
    actions: { persist: () => { calls.push('persist'); }, clearStoredBooking: () => { calls.push('clearStoredBooking'); } },
  }), {
    input,
    inspect: (ev) => {
      if (ev.type === '@xstate.microstep' && ev.actorRef === actor) {
        for (const t of (ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) taken.add(transitionId(t));
      }
    },
  });
  actor.start();
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    actor, calls,
    async exec(event: ModelEvent) {
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

describe.each(Object.entries(INPUTS))('the booking machine, starting from %s', (_name, input) => {
  const model = new TestModel(bookingMachine, {
    events: EVENTS as never,
    serializeState: serialize as never,
    serializeEvent: serializeEvent as never,
    input,
    limit: 5_000,
  });
  const shortest = new Map(model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => [serialize(p.state as BookingSnapshot), p]));
  const adjacency = model.getAdjacencyMap();
  const initial = Object.values(adjacency)[0].state as BookingSnapshot;
  shortest.set(serialize(initial), { steps: [] } as never);
  // A service can only finish while it runs: other done/error events are not edges.
  const settles = (s: BookingSnapshot, e: ModelEvent) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return !m || Boolean(s.children[m[1] as keyof typeof s.children]);
  };
  const handled = (s: BookingSnapshot, e: ModelEvent) =>
    bookingMachine.getTransitionData(s as never, e as never).length > 0;
  const ignoredSeen = new Set<string>();
  const firstIgnored = (e: ModelEvent) => !ignoredSeen.has(e.type) && Boolean(ignoredSeen.add(e.type));
  const edges = Object.values(adjacency).flatMap((v) =>
    (Object.values(v.transitions) as { event: unknown; state: unknown }[])
      .map((t: { event: unknown; state: unknown }) => ({ from: v.state as BookingSnapshot, event: t.event as ModelEvent, to: t.state as BookingSnapshot }))
      .filter((e) => settles(e.from, e.event))
      // An event no state handles leaves everything as it was: one such edge per event type is enough.
      .filter((e) => handled(e.from, e.event) || firstIgnored(e.event)));

  it(`replays a path through each of the ${edges.length} edges on a real actor`, async () => {
    for (const edge of edges) {
      const prefix = shortest.get(serialize(edge.from));
      expect(prefix, `no path to ${serialize(edge.from)}`).toBeDefined();
      const steps = [...prefix!.steps.map((s) => ({ event: s.event as ModelEvent, state: s.state as BookingSnapshot })), { event: edge.event, state: edge.to }];
      const sut = system(input);
      await new Promise((r) => setImmediate(r));
      const trail: string[] = [];
      for (const step of steps) {
        trail.push(serializeEvent(step.event));
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
  it('persists the form before pricing and clears storage on the confirmation', async () => {
    const sut = system(INPUTS['a first visit']);
    await sut.exec({ type: 'xstate.done.actor.loadSettings', output: settings });
    await sut.exec({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect(sut.calls).toEqual(['persist', 'persist']);
    await sut.exec({ type: 'xstate.done.actor.calculatePrice', output: { prices, trip: null } });
    sut.actor.send({ type: 'quotation.select', vehicle: prices[1], quantity: 3 });
    expect(sut.actor.getSnapshot().context).toMatchObject({ selectedVehicle: prices[1], quantity: 3 });
    sut.actor.send({ type: 'details.submit', registration });
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
});

afterAll(() => {
  const missing = [...defined].filter((t) => !taken.has(t));
  const pct = ((defined.size - missing.length) / defined.size) * 100;
  console.log(`Booking machine transition coverage: ${defined.size - missing.length}/${defined.size} (${pct.toFixed(1)}%)`);
  if (missing.length) console.log(`Not taken:\n  ${missing.join('\n  ')}`);
  expect(missing).toEqual([]);
});
