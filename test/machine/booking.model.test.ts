// Model-based tests of machines/booking.ts: for every transition the machine
// defines, the shortest path that takes it is generated from the machine
// (xstate/graph's breadth-first walk from each starting storage) and replayed,
// as its own test, on a real actor whose invoked services and clock are
// controlled by the test. Every transition must be taken at least once, and
// SPEC 2's step rules must hold in every state reached.
import { describe, expect, it, afterAll } from 'vitest';
import {
  createActor, fromPromise, fromTransition, SimulatedClock, type AnyActorScope, type AnyStateNode, type AnyTransitionDefinition,
} from 'xstate';
import {
  bookingMachine, errorText, pathOf, type BookingEvent, type BookingInput, type BookingSnapshot,
} from '../../machines/booking';
import { hasRegistration } from '../../machines/bookingSteps';
import { getAdjacencyMap } from 'xstate/graph';
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
  const takenHere = new Set<string>();
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
        for (const t of (ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
          taken.add(transitionId(t));
          takenHere.add(transitionId(t));
        }
      }
    },
  });
  actor.start();
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    actor, calls, clock, taken: takenHere as ReadonlySet<string>,
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

// Path generation with xstate/graph: getAdjacencyMap walks the model breadth-first from each starting storage.
// Its logic is the booking machine's own `transition`, run in a scope whose microsteps are recorded, so each
// edge is labelled with the transition definitions it takes (its event's and the eventless ones after it).
// Breadth-first, the first edge found taking a transition ends a shortest path that takes it: one test below.
const MAX_STATES = 5_000;
/** The other storages are there for where the page opens: their paths stop a few steps after it. */
const STORED_DEPTH = 3;

interface ModelNode { snapshot: BookingSnapshot; depth: number; parent: ModelNode | null; event: ModelEvent | null }
interface Walk { start: BookingSnapshot; states: BookingSnapshot[]; shortest: Map<string, { from: ModelNode; event: ModelEvent; to: BookingSnapshot }> }

let recorded: AnyTransitionDefinition[] = [];
const modelHost = createActor(fromTransition((s: null) => s, null), {
  inspect: (ev) => {
    if (ev.type === '@xstate.microstep' && ev.actorRef === modelHost) recorded.push(...(ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions);
  },
});
const modelScope = {
  self: modelHost, system: modelHost.system, id: '', sessionId: 'model', logger: () => {},
  defer: () => {}, stopChild: () => {}, emit: () => {}, actionExecutor: () => {},
} as unknown as AnyActorScope;

function walk(name: string, input: BookingInput, maxDepth: number): Walk {
  const labels = new Map<string, string[]>();
  const edgeKey = (s: BookingSnapshot, e: ModelEvent) => `${serialize(s)}\n${serializeEvent(e)}`;
  const labelling = {
    getInitialSnapshot: (_scope: unknown, i: BookingInput) => bookingMachine.getInitialSnapshot(modelScope, i),
    transition: (s: BookingSnapshot, e: ModelEvent) => {
      recorded = [];
      const next = bookingMachine.transition(s as never, e as never, modelScope) as BookingSnapshot;
      labels.set(edgeKey(s, e), recorded.map(transitionId));
      return next;
    },
  };
  const depthOf = new Map<string, number>();
  const adjacency = getAdjacencyMap(labelling as never, {
    input,
    events: ((state: BookingSnapshot) => EVENTS.filter((e) => handled(state, e))) as never,
    // Breadth-first: the first time a state is serialised, its depth is one more than the state it came from.
    serializeState: ((state: BookingSnapshot, _e: unknown, prev?: BookingSnapshot) => {
      const key = serialize(state);
      if (!depthOf.has(key)) depthOf.set(key, prev ? depthOf.get(serialize(prev))! + 1 : 0);
      return key;
    }) as never,
    serializeEvent: serializeEvent as never,
    stopWhen: ((state: BookingSnapshot) => depthOf.get(serialize(state))! >= maxDepth) as never,
    limit: MAX_STATES * EVENTS.length,
  });
  if (Object.keys(adjacency).length > MAX_STATES) {
    throw new Error(`the model has more than ${MAX_STATES} states from ${name}: does serialize tell apart something that grows?`);
  }
  // The map lists states in the order the walk met them, so the first parent found is on a shortest path.
  const entries = Object.entries(adjacency) as [string, { state: BookingSnapshot; transitions: Record<string, { event: ModelEvent; state: BookingSnapshot }> }][];
  const nodes = new Map<string, ModelNode>([[entries[0][0], { snapshot: entries[0][1].state, depth: 0, parent: null, event: null }]]);
  const shortest: Walk['shortest'] = new Map();
  for (const [key, { transitions }] of entries) {
    const from = nodes.get(key)!;
    for (const { event, state: to } of Object.values(transitions)) {
      for (const t of labels.get(edgeKey(from.snapshot, event)) ?? []) if (!shortest.has(t)) shortest.set(t, { from, event, to });
      const toKey = serialize(to);
      if (!nodes.has(toKey)) nodes.set(toKey, { snapshot: to, depth: from.depth + 1, parent: from, event });
    }
  }
  return { start: entries[0][1].state, states: entries.map(([, v]) => v.state), shortest };
}

interface ModelPath { steps: { event: ModelEvent; state: BookingSnapshot }[]; transitions: string[] }
function pathTo(edge: { from: ModelNode; event: ModelEvent; to: BookingSnapshot }): ModelPath['steps'] {
  const steps = [{ event: edge.event, state: edge.to }];
  for (let n: ModelNode | null = edge.from; n?.event; n = n.parent) steps.unshift({ event: n.event, state: n.snapshot });
  return steps;
}

/** One readable line per event, e.g. `checkEmail done (Email not found)`; they name the tests. */
function describeEvent(e: ModelEvent): string {
  const service = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
  if (service?.[1] === 'error') return `${service[2]} fails (${errorText((e as { error: unknown }).error)})`;
  if (service) {
    const out = (e as { output: { message?: string; success?: boolean } }).output;
    return `${service[2]} done${out.message ? ` (${out.message})` : 'success' in out ? ` (success: ${out.success})` : ''}`;
  }
  const after = /^xstate\.after\.(\d+)\./.exec(e.type);
  if (after) return `${after[1]} ms later`;
  const details = Object.entries(e).filter(([k, v]) => k !== 'type' && (typeof v === 'string' || typeof v === 'number'));
  return [e.type, ...details.map(([, v]) => v)].join(' ');
}
const describeState = (s: BookingSnapshot) =>
  (typeof s.value === 'string' ? s.value : Object.entries(s.value).map(([k, v]) => `${k}.${v}`).join(', '))
  + (s.matches('home') ? ` at ${pathOf(s)}` : '');
/** The states and events of a path; a state is named again only when an event changes it, and at the end. */
function describePath(start: BookingSnapshot, steps: ModelPath['steps']): string {
  const words = [describeState(start)];
  let shown = words[0];
  steps.forEach(({ event, state }, i) => {
    words.push(describeEvent(event));
    const here = describeState(state);
    if (here !== shown || i === steps.length - 1) words.push(here);
    shown = here;
  });
  return words.join(' -> ');
}
const eventNames = EVENTS.map(describeEvent);
if (new Set(eventNames).size !== EVENTS.length) throw new Error(`two model events read the same: ${eventNames.join(', ')}`);

const generationStarted = performance.now();
const [firstVisit, ...storages] = Object.keys(INPUTS);
const walks = new Map(Object.entries(INPUTS).map(([name, input]) => [name, walk(name, input, name === firstVisit ? Infinity : STORED_DEPTH)]));
// Per storage, its paths by their events: a path that is shortest for several transitions is one test.
const plans = new Map([...walks.keys()].map((name) => [name, new Map<string, ModelPath>()]));
function plan(name: string, transition: string) {
  const steps = pathTo(walks.get(name)!.shortest.get(transition)!);
  const key = steps.map((s) => serializeEvent(s.event)).join('\n');
  const paths = plans.get(name)!;
  if (!paths.has(key)) paths.set(key, { steps, transitions: [] });
  paths.get(key)!.transitions.push(transition);
}
for (const transition of defined) {
  const first = walks.get(firstVisit)!.shortest.get(transition);
  if (first) plan(firstVisit, transition);
  // Another storage's path too when it is the only way there or a shorter one (e.g. where that page opens).
  for (const name of storages) {
    const other = walks.get(name)!.shortest.get(transition);
    if (other && (!first || other.from.depth < first.from.depth)) plan(name, transition);
  }
}
const generationMs = performance.now() - generationStarted;

describe.each(Object.entries(INPUTS))('the booking machine, starting from %s', (name, input) => {
  const { start, states } = walks.get(name)!;
  const paths = [...plans.get(name)!.values()];

  it(`keeps SPEC 2's step rules in each of the ${states.length} model states ${name === firstVisit ? 'it reaches' : `within ${STORED_DEPTH} steps`}`, () => {
    for (const s of states) holdsSpecInvariants(s);
  });

  for (const { steps, transitions } of paths) {
    it(describePath(start, steps), async () => {
      const sut = system(input);
      try {
        await new Promise((r) => setImmediate(r));
        expect(serialize(sut.actor.getSnapshot()), 'on opening').toBe(serialize(start));
        const trail: string[] = [];
        for (const step of steps) {
          trail.push(describeEvent(step.event));
          await sut.exec(step.event);
          const got = sut.actor.getSnapshot();
          expect(serialize(got), `after ${trail.join(' -> ')}`).toBe(serialize(step.state));
          expect(pathOf(got)).toBe(pathOf(step.state));
          holdsSpecInvariants(got);
        }
        // The transitions this path was generated for, taken by the real actor.
        expect(transitions.filter((t) => !sut.taken.has(t)), 'not taken on the way').toEqual([]);
      } finally {
        sut.actor.stop();
      }
    });
  }
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
  const tests = [...plans.values()].reduce((n, p) => n + p.size, 0);
  const states = [...walks.values()].reduce((n, w) => n + w.states.length, 0);
  console.log(`Booking machine paths: ${tests} generated from ${states} model states in ${generationMs.toFixed(0)} ms`);
  const missing = [...defined].filter((t) => !taken.has(t));
  const pct = ((defined.size - missing.length) / defined.size) * 100;
  console.log(`Booking machine transition coverage: ${defined.size - missing.length}/${defined.size} (${pct.toFixed(1)}%)`);
  if (missing.length) console.log(`Not taken:\n  ${missing.join('\n  ')}`);
  expect(missing).toEqual([]);
});
