// Model-based tests of an XState machine, generated from the machine itself.
//
// For every transition the machine defines, the shortest path of model events that takes it is found by a
// labelled breadth-first walk (xstate/graph's getAdjacencyMap) from each starting input, and replayed, as its
// own test, on a real actor whose services, parent and clock the test controls. Every state on the way must
// keep the model's SPEC facts, and every transition must be taken at least once (the coverage is printed and
// asserted).
//
// A model (`Model`) is: the machine; the events a test may send (the machine's own, a service's answer, time
// passing, an event for one of its child machines); the inputs it starts from; a serialize function that tells
// apart the states that matter (at least everything the guards read); the SPEC facts each state keeps, given
// the steps that led to it; and the services the test answers. `testModel(model)` registers the tests;
// `run(model, input)` gives the same controlled actor to hand-written tests.
import { afterAll, describe, expect, it } from 'vitest';
import {
  createActor, createMachine, fromPromise, fromTransition, SimulatedClock,
  type AnyActorLogic, type AnyActorRef, type AnyActorScope, type AnyMachineSnapshot, type AnyStateMachine,
  type AnyEventObject, type AnyStateNode, type AnyTransitionDefinition, type EventFromLogic, type EventObject, type InputFrom,
  type SnapshotFrom, type StateValue,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { errorText } from '../../machines/shared';

// ---------------------------------------------------------------------------------------------------------------
// Model events

/** An invoked service settles: `answers(machine, 'login').done(output)` or `.fails(error)`. */
export type ServiceAnswer =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown };
/** A delayed transition's time has come: `timePasses(machine, 'home.urgent')`. */
export interface TimePasses { type: `xstate.after.${string}` }
/** An event for one of the machine's child machines (by its id), as that child's own screen would send it. */
export interface ToChild { type: '@child'; child: string; event: AnyEventObject }
export type ModelEvent<E extends EventObject = AnyEventObject> = E | ServiceAnswer | TimePasses | ToChild;

/** Invoke id -> the name the machine invokes the service by; after-event type -> its delay. */
const serviceNames = new Map<string, string>();
const delays = new Map<string, { ms: number; state: string }>();

function invocations(node: AnyStateNode): { id: string; src: unknown }[] {
  return [...node.invoke, ...Object.values(node.states).flatMap(invocations)];
}

/** The model events of a service's answers, by the name the machine invokes it by (invoked in one state only). */
export function answers(machine: AnyStateMachine, src: string) {
  const ids = invocations(machine.root).filter((i) => i.src === src).map((i) => i.id);
  if (ids.length !== 1) throw new Error(`${machine.id} invokes ${src} in ${ids.length} states`);
  serviceNames.set(ids[0], src);
  return {
    done: (output?: unknown): ServiceAnswer => ({ type: `xstate.done.actor.${ids[0]}`, output }),
    fails: (error: unknown): ServiceAnswer => ({ type: `xstate.error.actor.${ids[0]}`, error }),
  };
}

/** The model event of a state's one delayed transition, e.g. `timePasses(bookingMachine, 'home.urgent')`. */
export function timePasses(machine: AnyStateMachine, state: string): TimePasses {
  const [after, ...more] = machine.getStateNodeById(`${machine.id}.${state}`).after;
  if (!after || more.length) throw new Error(`${machine.id}.${state} has ${more.length + (after ? 1 : 0)} delayed transitions`);
  const name = /^xstate\.after\.([^.]+)\./.exec(after.eventType)![1];
  const delay: unknown = machine.implementations.delays[name] ?? Number(name);
  if (typeof delay !== 'number' || Number.isNaN(delay)) throw new Error(`the delay ${name} is not a number of ms`);
  delays.set(after.eventType, { ms: delay, state });
  return { type: after.eventType as TimePasses['type'] };
}

export const toChild = (child: string, event: AnyEventObject): ToChild => ({ type: '@child', child, event });

/** The services a state has called and not yet heard back from, by the name it invokes them by, with their input. */
export function callsOpen(s: AnyMachineSnapshot): Record<string, unknown> {
  const open: Record<string, unknown> = {};
  for (const child of Object.values(s.children as Record<string, AnyActorRef>)) {
    if (typeof child?.src === 'string') open[child.src] = (child.getSnapshot() as { input?: unknown }).input;
  }
  return open;
}

const answer = (e: ModelEvent) => /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type) as null | [string, 'done' | 'error', string];

// ---------------------------------------------------------------------------------------------------------------
// Transitions

/** A transition of the machine, by its source state, its event and its place among that event's transitions. */
export function transitionId(t: AnyTransitionDefinition): string {
  const list = t.eventType === '' ? t.source.always ?? [] : t.source.transitions.get(t.eventType) ?? [];
  return `${t.source.id} ${t.eventType || '(always)'} #${list.indexOf(t)}`;
}

/** Every transition a state node and its descendants define. */
export function allTransitions(node: AnyStateNode): string[] {
  const own = [...node.transitions.values()].flat().concat(node.always ?? []).map(transitionId);
  return own.concat(Object.values(node.states).flatMap(allTransitions));
}

const transitionsOf = (ev: unknown) => (ev as { _transitions: AnyTransitionDefinition[] })._transitions.map(transitionId);

// ---------------------------------------------------------------------------------------------------------------
// A model

/** What one step did besides changing state: the named actions it called, what it told its parent, what its children told it. */
export interface Effects {
  /** The model's `actions` the machine called, with their params (e.g. storeSession with the session). */
  actions: { type: string; params: unknown }[];
  /** What the parent received: sendParent events, and the done event with the output when the machine finishes. */
  toParent: AnyEventObject[];
  /** What the machine's child machines sent it (sendParent), e.g. the account's 'navigate'. */
  fromChildren: AnyEventObject[];
}
export interface Step<S> {
  event: ModelEvent;
  state: S;
  effects: Effects;
  /** The model's `view` of the state, read when the step happened (a snapshot only references its children's live actors). */
  view?: unknown;
  /** The transitions the step took, in order (the browser paths wait for the page's machine to take them). */
  taken?: readonly string[];
}
/** The steps that led to a state, from the start. */
export type Trail<S> = readonly Step<S>[];

/** Builds the controlled actors for the named services (see `Model.services`). */
export type Answered = (...names: string[]) => Record<string, AnyActorLogic>;

export interface Model<M extends AnyStateMachine> {
  /** 'booking machine': names the describe blocks and the printed report. */
  name: string;
  machine: M;
  events: readonly ModelEvent<EventFromLogic<M>>[];
  /** The starting inputs by name. The walk from the first goes furthest; the others add a path only where it is the only or a shorter one. */
  inputs: Record<string, InputFrom<M>>;
  /** Tells apart the states that matter, at least everything the guards read: states that serialize alike are explored once. */
  serialize: (s: SnapshotFrom<M>) => string;
  /** The SPEC facts a state keeps, given the steps that reached it (asserted after every step of the walk and of each replayed path). */
  facts: (s: SnapshotFrom<M>, trail: Trail<SnapshotFrom<M>>, input: InputFrom<M>) => void;
  /** How the facts read in the test name, e.g. "SPEC 2's step rules". */
  factsTitle?: string;
  /** The services the test answers: their names, or the actors to provide built with `answered` (real child machines whose own services are answered). */
  services: readonly string[] | ((answered: Answered) => Record<string, AnyActorLogic>);
  /** Named actions recorded as effects (they stay the machine's own no-ops). */
  actions?: readonly string[];
  describeState?: (s: SnapshotFrom<M>) => string;
  /** What the facts need to read of a state later on, as plain data (e.g. the children's states), kept in each step. */
  view?: (s: SnapshotFrom<M>) => unknown;
  /**
   * 'transition' (default): the walk runs the machine's pure `transition`, children never start.
   * 'system': each step of the walk replays its path on a real actor system; for a machine whose guards read its children.
   */
  walk?: 'transition' | 'system';
  /** How many steps the walk goes from each input; by default unbounded from the first, 3 from the others. */
  depth?: (inputName: string, index: number) => number;
  /** Fails the walk when it meets more states than this (serialize then tells apart something that grows). */
  maxStates?: number;
  /**
   * Which of the events the state handles a test may send there (all, by default). The browser paths leave out what
   * a person cannot do on the page, e.g. go to the address the page is already at.
   */
  allows?: (s: SnapshotFrom<M>, e: ModelEvent<EventFromLogic<M>>) => boolean;
  /**
   * What SPEC lets a person do on the screen a state shows (its buttons, forms and dialogs): the state must act on
   * each (`can`), checked with the facts. A control the page shows that the machine ignores is a broken page; without
   * this list the generated paths, taken from the machine, never ask for a transition the machine lacks.
   */
  offers?: (s: SnapshotFrom<M>) => readonly ModelEvent<EventFromLogic<M>>[];
  /**
   * The calls whose answer decides the next screen: a state is busy (the app holds the address bar, the page shows
   * it waits) exactly while one of them is open.
   */
  deciding?: readonly string[];
}

/** The model's facts of a state; that it is busy exactly while a deciding call is open, and acts on what its screen offers. */
function checkState<M extends AnyStateMachine>(model: Model<M>, s: SnapshotFrom<M>, trail: Trail<SnapshotFrom<M>>, input: InputFrom<M>) {
  model.facts(s, trail, input);
  if (model.deciding) {
    const waiting = Object.keys(callsOpen(s as AnyMachineSnapshot)).some((src) => model.deciding!.includes(src));
    expect((s as AnyMachineSnapshot).hasTag('busy'), 'busy exactly while a call that decides the next screen is open').toBe(waiting);
  }
  for (const e of model.offers?.(s) ?? []) {
    expect((s as AnyMachineSnapshot).can(e as AnyEventObject), `the screen offers "${describeEvent(e)}": the state acts on it`).toBe(true);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The controlled actor

export interface Run<S, E extends EventObject = AnyEventObject> {
  /** The machine under test: a child of a small recording parent. */
  readonly actor: AnyActorRef;
  readonly snapshot: S;
  readonly clock: SimulatedClock;
  /** Transitions the machine took since it was created. */
  readonly taken: ReadonlySet<string>;
  /** Every service started, with its input, in order. */
  readonly calls: { service: string; input: unknown }[];
  /** Every named action (of the model's `actions`) called since the machine started, in order. */
  readonly actionsCalled: { type: string; params: unknown }[];
  /** What the parent received. */
  readonly received: AnyEventObject[];
  /** Whether the model event is one the system can take now (the state handles it; a service answer needs the service running). */
  handles(e: ModelEvent<E>): boolean;
  /** Takes a model event as the world would: a service's promise settles, the simulated clock moves on. */
  exec(e: ModelEvent<E>): Promise<StepResult>;
  /** Takes it at once: a service's answer goes straight to the machine that waits for it (used by the 'system' walk). */
  execNow(e: ModelEvent<E>): StepResult;
  send(e: E): void;
  stop(): void;
}
export interface StepResult { effects: Effects; taken: string[] }

const noEffects = (): StepResult => ({ effects: { actions: [], toParent: [], fromChildren: [] }, taken: [] });
const settle = () => new Promise((r) => setImmediate(r));

interface Waiting { ref: AnyActorRef; resolve: (v: unknown) => void; reject: (e: unknown) => void }
/** What a run's services and its recording parent report to, by the actor system they run in. */
interface Control {
  pending: Map<string, Waiting>;
  calls: Run<unknown>['calls'];
  received(e: AnyEventObject): void;
}
const controls = new WeakMap<object, Control>();

const controlledServices = new Map<string, AnyActorLogic>();
/** Services that wait until the test answers them (built once, so the machines providing them are built once too). */
export const answered: Answered = (...names) => Object.fromEntries(names.map((service) => {
  if (!controlledServices.has(service)) {
    controlledServices.set(service, fromPromise<unknown, unknown>(({ input, self, system }) => new Promise((resolve, reject) => {
      const control = controls.get(system)!;
      control.calls.push({ service, input });
      control.pending.set(self.id, { ref: self, resolve, reject });
    })));
  }
  return [service, controlledServices.get(service)!];
}));

/**
 * The machine under test with a bound on the microsteps of one event: a cycle of eventless transitions (a broken
 * route, say) throws at once instead of spinning until the test's time runs out (XState's `maxIterations`).
 */
const MAX_MICROSTEPS = 1000;
const boundedMachines = new WeakMap<AnyStateMachine, AnyStateMachine>();
function bounded(machine: AnyStateMachine): AnyStateMachine {
  if (!boundedMachines.has(machine)) {
    const config = machine.config as { options?: object };
    boundedMachines.set(machine, createMachine(
      { ...config, options: { ...config.options, maxIterations: MAX_MICROSTEPS } } as never, machine.implementations as never,
    ));
  }
  return boundedMachines.get(machine)!;
}

/** The tiny parent the machine under test runs in: it records what it receives. */
function parentOf(machine: AnyStateMachine, provided: Model<AnyStateMachine>['services']) {
  const actors = typeof provided === 'function' ? provided(answered) : answered(...provided);
  return createMachine({
    context: ({ input }: { input: unknown }) => ({ input }),
    invoke: { id: machine.id, src: bounded(machine).provide({ actors } as never), input: ({ context }: { context: { input: unknown } }) => context.input },
    on: { '*': { actions: ({ event, system }: { event: AnyEventObject; system: object }) => controls.get(system)!.received(event) } },
  } as never);
}
const parents = new WeakMap<object, AnyStateMachine>();

/**
 * A real actor of the model's machine, started with `input`, whose services wait until the test answers them, on
 * a simulated clock, as the child of a tiny parent machine that records what it receives.
 */
export function run<M extends AnyStateMachine>(
  model: Model<M>, input: InputFrom<M>, options: { services?: Model<M>['services']; coverage?: Set<string> } = {},
): Run<SnapshotFrom<M>, EventFromLogic<M>> {
  const pending = new Map<string, Waiting>();
  const calls: Run<unknown>['calls'] = [];
  const actionsCalled: Run<unknown>['actionsCalled'] = [];
  const received: AnyEventObject[] = [];
  const taken = new Set<string>();
  let step = noEffects();

  if (!options.services && !parents.has(model)) parents.set(model, parentOf(model.machine, model.services));
  const parent = options.services ? parentOf(model.machine, options.services) : parents.get(model)!;
  const id = model.machine.id;

  // The machine under test is the parent's only child (its own children have parents with parents).
  const isSut = (ref: AnyActorRef | undefined) => ref?.id === id && !!ref._parent && !ref._parent._parent;
  const clock = new SimulatedClock();
  const host = createActor(parent, {
    clock,
    input,
    inspect: (ev) => {
      if (!isSut(ev.actorRef as AnyActorRef)) return;
      if (ev.type === '@xstate.microstep') {
        for (const t of transitionsOf(ev)) {
          taken.add(t);
          step.taken.push(t);
          options.coverage?.add(t);
        }
      } else if (ev.type === '@xstate.action' && model.actions?.includes(ev.action.type)) {
        actionsCalled.push(ev.action);
        step.effects.actions.push(ev.action);
      } else if (ev.type === '@xstate.event' && (ev.sourceRef as AnyActorRef | undefined)?._parent === ev.actorRef && !ev.event.type.startsWith('xstate.')) {
        step.effects.fromChildren.push(ev.event);
      }
    },
  });
  controls.set(host.system, {
    pending, calls, received: (e) => { received.push(e); step.effects.toParent.push(e); },
  });
  host.start();
  const sut = () => host.getSnapshot().children[id] as AnyActorRef;
  const snapshotOf = () => sut().getSnapshot() as AnyMachineSnapshot;
  const running = (ref: AnyActorRef | undefined) => ref?.getSnapshot().status === 'active';

  function handles(e: ModelEvent): boolean {
    if (e.type === '@child') {
      const child = snapshotOf().children[(e as ToChild).child]?.getSnapshot() as AnyMachineSnapshot | undefined;
      return child?.status === 'active' && child.machine.getTransitionData(child, (e as ToChild).event).length > 0;
    }
    const service = answer(e);
    if (service) {
      const waiting = pending.get(service[2]);
      if (!waiting || !running(waiting.ref)) return false;
      const owner = waiting.ref._parent!.getSnapshot() as AnyMachineSnapshot;
      return owner.machine.getTransitionData(owner, e).length > 0;
    }
    return model.machine.getTransitionData(snapshotOf(), e).length > 0;
  }

  /** Takes the event; a service's answer is given by `answer`. */
  function take(e: ModelEvent, answerWith: (waiting: Waiting, kind: 'done' | 'error') => void) {
    step = noEffects();
    const service = answer(e);
    if (service) {
      const waiting = pending.get(service[2]);
      // A service's answer is only an event while the service runs.
      if (!waiting || !running(waiting.ref)) return;
      pending.delete(service[2]);
      answerWith(waiting, service[1]);
      return;
    }
    if (e.type === '@child') {
      (snapshotOf().children[(e as ToChild).child] as AnyActorRef).send((e as ToChild).event);
      return;
    }
    const delay = delays.get(e.type);
    if (delay) {
      if (handles(e)) clock.increment(delay.ms);
      return;
    }
    if (e.type.startsWith('xstate.after.')) throw new Error(`make ${e.type} with timePasses()`);
    sut().send(e);
  }

  step = noEffects(); // what the opening did is not a step
  return {
    get actor() { return sut(); },
    get snapshot() { return snapshotOf() as SnapshotFrom<M>; },
    clock, taken, calls, actionsCalled, received, handles,
    async exec(e) {
      let settled = false;
      take(e, (waiting, kind) => {
        settled = true;
        if (kind === 'done') waiting.resolve((e as { output: unknown }).output);
        else waiting.reject((e as { error: unknown }).error);
      });
      if (settled) await settle();
      return step;
    },
    execNow(e) {
      take(e, (waiting, kind) => {
        const { type, output, error } = e as AnyEventObject;
        waiting.ref._parent!.send(kind === 'done' ? { type, output } : { type, error });
      });
      return step;
    },
    send(e) { sut().send(e); },
    stop() { host.stop(); },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The walk

interface Stepper<S> {
  start(): { state: S; taken: string[] };
  next(s: S, e: ModelEvent): { state: S } & StepResult;
  handles(s: S, e: ModelEvent): boolean;
}

/** Steps with the machine's pure transition function, in a scope that records the transitions, actions and parent-bound events. */
function transitionStepper<S extends AnyMachineSnapshot>(model: Model<AnyStateMachine>, input: unknown): Stepper<S> {
  const machine = bounded(model.machine);
  let step = noEffects();
  const parent = createActor(fromTransition((s: null) => s, null), {
    inspect: (ev) => {
      if (ev.type === '@xstate.microstep' && ev.actorRef === self) step.taken.push(...transitionsOf(ev));
    },
  });
  const self = createActor(fromTransition((s: null) => s, null), { parent });
  const scope = {
    self, system: self.system, id: '', sessionId: 'model', logger: () => {}, defer: () => {}, stopChild: () => {}, emit: () => {},
    // Actions are recorded, never run: children are created but never start, nothing is sent or scheduled.
    actionExecutor: (action: { type: string; params: unknown }) => {
      const params = action.params as { to?: unknown; event?: AnyEventObject } | undefined;
      if (action.type === 'xstate.sendTo' && params?.to === parent) step.effects.toParent.push(params.event!);
      else if (model.actions?.includes(action.type)) step.effects.actions.push({ type: action.type, params: action.params });
    },
  } as unknown as AnyActorScope;
  return {
    start() {
      step = noEffects();
      return { state: machine.getInitialSnapshot(scope, input) as S, taken: step.taken };
    },
    next(s, e) {
      step = noEffects();
      const state = machine.transition(s, e, scope) as S;
      if (state.status === 'done' && s.status !== 'done') step.effects.toParent.push({ type: `xstate.done.actor.${machine.id}`, output: state.output, actorId: machine.id });
      return { state, ...step };
    },
    handles: (s, e) => e.type !== '@child' && machine.getTransitionData(s, e).length > 0,
  };
}

/** Steps by replaying the path on a fresh real system each time (answers sent at once): the children run too. */
function systemStepper<S>(model: Model<AnyStateMachine>, input: unknown): Stepper<S> {
  const systems = new WeakMap<object, { system: Run<unknown>; path: ModelEvent[] }>();
  const keep = (system: Run<unknown>, path: ModelEvent[]) => {
    const state = system.snapshot as S;
    systems.set(state as object, { system, path });
    return state;
  };
  return {
    start() {
      const system = run(model, input);
      return { state: keep(system, []), taken: [...system.taken] };
    },
    next(s, e) {
      const system = run(model, input);
      const { path } = systems.get(s as object)!;
      for (const earlier of path) system.execNow(earlier);
      const result = system.execNow(e);
      return { state: keep(system, [...path, e]), ...result };
    },
    handles: (s, e) => systems.get(s as object)!.system.handles(e),
  };
}

interface ModelNode<S> { snapshot: S; depth: number; parent: ModelNode<S> | null; event: ModelEvent | null; effects: Effects | null; taken: string[] }
/** A step of the walk: from a model state (reached by its first, shortest path), by an event, to the state it leads to. */
interface Edge<S> { from: ModelNode<S>; event: ModelEvent; to: S; effects: Effects; taken: string[] }
export interface Walk<S> {
  start: S;
  /** The transitions taken on opening (before any event). */
  startTaken: string[];
  /** The model states, each with the first (a shortest) path that reached it. */
  nodes: ModelNode<S>[];
  /** Every step the walk took: the facts are checked after each, not only on the first way to each state. */
  edges: Edge<S>[];
  /** Per transition, the step that ends a shortest path taking it (edge null: it is taken on opening). */
  shortest: Map<string, { edge: Edge<S> | null; length: number }>;
}

export const serializeEvent = (e: ModelEvent) => JSON.stringify(e, (_k, v) => (v instanceof Error ? v.message : v));

// Breadth-first, the first edge found taking a transition ends a shortest path that takes it.
function walk<S extends AnyMachineSnapshot>(model: Model<AnyStateMachine>, name: string, input: unknown, maxDepth: number): Walk<S> {
  const maxStates = model.maxStates ?? 5_000;
  const stepper = model.walk === 'system' ? systemStepper<S>(model, input) : transitionStepper<S>(model, input);
  const serialize = model.serialize as (s: S) => string;
  const edgeKey = (s: S, e: ModelEvent) => `${serialize(s)}\n${serializeEvent(e)}`;
  const steps = new Map<string, StepResult>();
  let startTaken: string[] = [];
  const labelling = {
    getInitialSnapshot: () => {
      const { state, taken } = stepper.start();
      startTaken = taken;
      return state;
    },
    transition: (s: S, e: ModelEvent) => {
      const { state, ...result } = stepper.next(s, e);
      steps.set(edgeKey(s, e), result);
      return state;
    },
  };
  const depthOf = new Map<string, number>();
  const adjacency = getAdjacencyMap(labelling as never, {
    events: ((s: S) => model.events.filter((e) => stepper.handles(s, e) && (model.allows?.(s as never, e as never) ?? true))) as never,
    // Breadth-first: the first time a state is serialised, its depth is one more than the state it came from.
    serializeState: ((s: S, _e: unknown, prev?: S) => {
      const key = serialize(s);
      if (!depthOf.has(key)) depthOf.set(key, prev ? depthOf.get(serialize(prev))! + 1 : 0);
      return key;
    }) as never,
    serializeEvent: serializeEvent as never,
    stopWhen: ((s: S) => depthOf.get(serialize(s))! >= maxDepth) as never,
    limit: maxStates * model.events.length,
  });
  const entries = Object.entries(adjacency) as unknown as [string, { state: S; transitions: Record<string, { event: ModelEvent; state: S }> }][];
  if (entries.length > maxStates) {
    throw new Error(`the model has more than ${maxStates} states from ${name}: does serialize tell apart something that grows?`);
  }
  // The map lists states in the order the walk met them, so the first parent found is on a shortest path.
  const start = entries[0][1].state;
  const nodes = new Map<string, ModelNode<S>>([[entries[0][0], { snapshot: start, depth: 0, parent: null, event: null, effects: null, taken: [] }]]);
  const shortest: Walk<S>['shortest'] = new Map(startTaken.map((t) => [t, { edge: null, length: 0 }]));
  const edges: Edge<S>[] = [];
  for (const [key, { transitions }] of entries) {
    const from = nodes.get(key)!;
    for (const { event, state: to } of Object.values(transitions)) {
      const { taken, effects } = steps.get(edgeKey(from.snapshot, event))!;
      const edge = { from, event, to, effects, taken };
      edges.push(edge);
      for (const t of taken) if (!shortest.has(t)) shortest.set(t, { edge, length: from.depth + 1 });
      const toKey = serialize(to);
      if (!nodes.has(toKey)) nodes.set(toKey, { snapshot: to, depth: from.depth + 1, parent: from, event, effects, taken });
    }
  }
  return { start, startTaken, nodes: [...nodes.values()], edges, shortest };
}

type View<S> = ((s: S) => unknown) | undefined;

function trailOf<S>(node: ModelNode<S>, view: View<S>): Step<S>[] {
  const steps: Step<S>[] = [];
  for (let n: ModelNode<S> | null = node; n?.event; n = n.parent) {
    steps.unshift({ event: n.event, state: n.snapshot, effects: n.effects!, view: view?.(n.snapshot), taken: n.taken });
  }
  return steps;
}

function pathTo<S>(edge: Edge<S> | null, view: View<S>): Step<S>[] {
  if (!edge) return [];
  return [...trailOf(edge.from, view), { event: edge.event, state: edge.to, effects: edge.effects, view: view?.(edge.to), taken: edge.taken }];
}

// ---------------------------------------------------------------------------------------------------------------
// Descriptions: they name the tests

function outputText(out: unknown): string {
  if (out === undefined) return '';
  if (out === null || typeof out !== 'object') return ` (${String(out)})`;
  if (Array.isArray(out)) return ` (${out.length} ${out.length === 1 ? 'item' : 'items'})`;
  const o = out as { message?: unknown; success?: unknown; kind?: unknown; refund?: { status?: unknown } | null };
  if (typeof o.message === 'string' && o.message) return ` (${o.message})`;
  if (typeof o.kind === 'string') return ` (${o.kind}${o.refund ? `, refund ${String(o.refund.status)}` : ''})`;
  if (typeof (o as { role?: unknown }).role === 'string') return ` (${String((o as { role: string }).role)})`;
  // Issue 27's manage page: an answer's status, and a booking page by what it lets the passenger do.
  if (typeof (o as { status?: unknown }).status === 'string') return ` (${String((o as { status: string }).status)})`;
  const page = (o as { manage?: { status: string; may: { change: boolean }; waiting_change: unknown; job?: { flight?: unknown } | null } }).manage;
  if (page) {
    return ` (${page.status}${page.may.change ? '' : ', closed to changes'}${page.waiting_change ? ', a change waiting' : ''}${page.job?.flight ? ', its flight followed' : ''}${page.job === null ? ', no job yet' : ''})`;
  }
  // Issue 43's payment link: its page by where the link stands.
  if (typeof (o as { state?: unknown }).state === 'string') return ` (${String((o as { state: string }).state)})`;
  // Issue 43's console pages: an answer for a range of days reads as its range.
  const range = (o as { range?: { from?: unknown; to?: unknown } }).range;
  if (range && typeof range.from === 'string') return ` (${range.from} to ${String(range.to)})`;
  // The privacy page's export: where the address is held, and whether it may be erased.
  const held = o as { sections?: unknown[]; erase?: { allowed?: unknown } };
  if (Array.isArray(held.sections)) return ` (held in ${held.sections.length} places${held.erase?.allowed ? '' : ', erase refused'})`;
  // Issue 44's console pages: an answer says whether the office may bill (mark invoices paid, issue them).
  if (typeof (o as { may_bill?: unknown }).may_bill === 'boolean') return (o as { may_bill: boolean }).may_bill ? ' (may bill)' : ' (may not bill)';
  return 'success' in o ? ` (success: ${String(o.success)})` : '';
}

/** One readable line per event, e.g. `checkEmail done (Email not found)` or `url.changed /login?redirect=%2Fbookings`. */
export function describeEvent(e: ModelEvent): string {
  if (e.type === '@child') return `${(e as ToChild).child}: ${describeEvent((e as ToChild).event)}`;
  const service = answer(e);
  if (service) {
    const name = serviceNames.get(service[2]) ?? service[2];
    return service[1] === 'error' ? `${name} fails (${errorText((e as { error: unknown }).error)})` : `${name} done${outputText((e as { output: unknown }).output)}`;
  }
  const delay = delays.get(e.type);
  if (delay) {
    const alike = [...delays.values()].filter((d) => d.ms === delay.ms).length > 1;
    return `${delay.ms} ms later${alike ? ` in ${delay.state}` : ''}`;
  }
  const fields = e as unknown as Record<string, unknown>;
  const words = [e.type];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'type' || k === 'search') continue;
    if (k === 'path' && typeof v === 'string') words.push(v + (typeof fields.search === 'string' ? fields.search : ''));
    else if ((typeof v === 'string' && v !== '') || typeof v === 'number') words.push(String(v));
    else if (v === null) words.push(`no ${k}`);
    // A journey (issue 43's New booking) reads as its kind.
    else if (v && typeof v === 'object' && typeof (v as { bookingType?: unknown }).bookingType === 'string') words.push((v as { bookingType: string }).bookingType);
    // A range of days (issue 43's records) reads as its days.
    else if (v && typeof v === 'object' && typeof (v as { from?: unknown }).from === 'string' && typeof (v as { to?: unknown }).to === 'string') {
      words.push(`${(v as { from: string }).from} to ${(v as { to: string }).to}`);
    }
    // The values of an account's booking fields (issue 44's Pay on account) read as they were given.
    else if (k === 'fields' && v && typeof v === 'object' && !Array.isArray(v)) {
      words.push(Object.values(v).map((x) => (x === '' ? '(empty)' : String(x))).join(' '));
    }
    // A field of numbers only (the newest booking's id and count) reads as them: two such events differ by them.
    else if (v && typeof v === 'object' && Object.values(v).length && Object.values(v).every((x) => typeof x === 'number')) {
      words.push(Object.entries(v).map(([name, n]) => `${name} ${n}`).join(' '));
    } else if (v && typeof v === 'object') {
      // A job as a page hears it (issue 41): by its status, else by its booking's.
      const o = v as { status?: unknown; booking_status?: unknown };
      const named = typeof o.status === 'string' ? o.status : typeof o.booking_status === 'string' ? o.booking_status : null;
      if (named) words.push(named);
      // And by what its flight said and where the pickup stands (issue 42).
      const flight = (v as { flight?: { pickup_at?: string; said?: string } | null }).flight;
      if (flight) words.push(`flight ${flight.said ?? ''} pickup ${flight.pickup_at?.slice(11, 16) ?? ''}`);
    }
  }
  return words.join(' ');
}

const valueText = (v: StateValue): string => (typeof v === 'string' ? v : Object.entries(v)
  .map(([k, c]) => (c === undefined || (typeof c === 'object' && !Object.keys(c).length) ? k : `${k}.${valueText(c)}`))
  .join(', '));

/** The states and events of a path; a state is named again only when an event changes it, and at the end. */
export function describePath<S extends AnyMachineSnapshot>(start: S, steps: readonly { event: ModelEvent; state: S }[], describeState: (s: S) => string = (s) => valueText(s.value)): string {
  if (!steps.length) return `${describeState(start)} on opening`;
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

/** Effects as data (an Error by its message), to compare the walk's with the actor's. */
const plain = (x: unknown) => JSON.parse(serializeEvent(x as ModelEvent)) as unknown;

// ---------------------------------------------------------------------------------------------------------------
// The tests

export interface ModelPath<S> { steps: Step<S>[]; transitions: string[] }
export interface Generated<S> {
  walks: Map<string, Walk<S>>;
  plans: Map<string, Map<string, ModelPath<S>>>;
  generationMs: number;
}

/** Walks the model from each input and picks, per transition, the shortest path taking it; a path shortest for several is one test. */
export function generate<M extends AnyStateMachine>(model: Model<M>): Generated<SnapshotFrom<M>> {
  type S = SnapshotFrom<M>;
  const eventNames = model.events.map((e) => describeEvent(e));
  const twice = eventNames.filter((n, i) => eventNames.indexOf(n) !== i);
  if (twice.length) throw new Error(`two model events read the same: ${twice.join(', ')}`);

  const started = performance.now();
  const depth = model.depth ?? ((_name, i) => (i === 0 ? Infinity : 3));
  const names = Object.keys(model.inputs);
  const walks = new Map(names.map((name, i) => [
    name, walk<S & AnyMachineSnapshot>(model as never, name, model.inputs[name], depth(name, i)) as unknown as Walk<S>,
  ]));
  const plans = new Map(names.map((name) => [name, new Map<string, ModelPath<S>>()]));
  const plan = (name: string, transition: string) => {
    const steps = pathTo(walks.get(name)!.shortest.get(transition)!.edge, model.view);
    const key = steps.map((s) => serializeEvent(s.event)).join('\n');
    const paths = plans.get(name)!;
    if (!paths.has(key)) paths.set(key, { steps, transitions: [] });
    paths.get(key)!.transitions.push(transition);
  };
  const [first, ...others] = names;
  for (const transition of allTransitions(model.machine.root)) {
    const fromFirst = walks.get(first)!.shortest.get(transition);
    if (fromFirst) plan(first, transition);
    // Another input's path too when it is the only way there or a shorter one (e.g. where that page opens).
    for (const name of others) {
      const other = walks.get(name)!.shortest.get(transition);
      if (other && (!fromFirst || other.length < fromFirst.length)) plan(name, transition);
    }
  }
  return { walks, plans, generationMs: performance.now() - started };
}

/** Replays one generated path on a controlled actor, checking the state, the effects and the SPEC facts after each step. */
export async function replay<M extends AnyStateMachine>(
  model: Model<M>, input: InputFrom<M>, start: SnapshotFrom<M>, path: ModelPath<SnapshotFrom<M>>, coverage?: Set<string>,
) {
  const sut = run(model, input, { coverage });
  try {
    expect(model.serialize(sut.snapshot), 'on opening').toBe(model.serialize(start));
    checkState(model, sut.snapshot, [], input);
    const trail: Step<SnapshotFrom<M>>[] = [];
    for (const step of path.steps) {
      const { effects } = await sut.exec(step.event as ModelEvent<EventFromLogic<M>>);
      const got = sut.snapshot;
      trail.push({ event: step.event, state: got, effects, view: model.view?.(got) });
      const where = `after ${trail.map((s) => describeEvent(s.event)).join(' -> ')}`;
      expect(model.serialize(got), where).toBe(model.serialize(step.state));
      expect(plain(effects), `${where}: what it called and sent`).toEqual(plain(step.effects));
      checkState(model, got, trail, input);
    }
    // The transitions this path was generated for, taken by the real actor.
    expect(path.transitions.filter((t) => !sut.taken.has(t)), 'not taken on the way').toEqual([]);
  } finally {
    sut.stop();
  }
}

const MAX_STEPS_PER_TEST = 1_500;

/**
 * Registers the model's tests: per input, that the SPEC facts hold after every step of the walk (in a few tests
 * when the walk is large), and one test per generated path; after them, the transition coverage of the paths is
 * printed and must be 100%.
 */
export function testModel<M extends AnyStateMachine>(model: Model<M>): Generated<SnapshotFrom<M>> {
  type S = SnapshotFrom<M>;
  const generated = generate(model);
  const defined = new Set(allTransitions(model.machine.root));
  const taken = new Set<string>();
  const describeState = model.describeState as ((s: AnyMachineSnapshot) => string) | undefined;
  const depth = model.depth ?? ((_name, i) => (i === 0 ? Infinity : 3));
  const names = Object.keys(model.inputs);

  describe.each(Object.entries(model.inputs))(`the ${model.name}, starting from %s`, (name, input) => {
    const { start, nodes, edges } = generated.walks.get(name)!;
    const d = depth(name, names.indexOf(name));
    const reach = `${nodes.length} model states ${d === Infinity ? 'it reaches' : `within ${d} steps`}`;
    const checkFacts = (trails: Step<S>[][]) => {
      for (const trail of trails) {
        try {
          checkState(model, (trail.at(-1)?.state ?? start) as S, trail, input as InputFrom<M>);
        } catch (e) {
          if (e instanceof Error) e.message = `${describePath(start as never, trail as never, describeState)}: ${e.message}`;
          throw e;
        }
      }
    };
    const title = `keeps ${model.factsTitle ?? 'the SPEC facts'} after each of the`;
    // A large walk is checked in parts, by the state each step starts from, to keep each test short.
    const parts = new Map<string, Edge<S>[]>(edges.length ? [] : [['', []]]);
    for (const edge of edges) {
      const from = edges.length <= MAX_STEPS_PER_TEST ? '' : valueText((edge.from.snapshot as AnyMachineSnapshot).value);
      if (!parts.has(from)) parts.set(from, []);
      parts.get(from)!.push(edge);
    }
    let first = true;
    for (const [from, all] of parts) {
      const count = Math.max(1, Math.ceil(all.length / MAX_STEPS_PER_TEST));
      for (let i = 0; i < count; i++) {
        const part = all.slice(i * MAX_STEPS_PER_TEST, (i + 1) * MAX_STEPS_PER_TEST);
        const what = !from ? `${part.length} steps between the ${reach}`
          : `${part.length} steps from ${from}${count > 1 ? ` (part ${i + 1} of ${count})` : ''}, of the ${reach}`;
        // The first part checks the opening state too.
        const opening = first;
        it(`${title} ${what}`, () => checkFacts([...(opening ? [[]] : []), ...part.map((e) => pathTo(e, model.view))]));
        first = false;
      }
    }
    for (const path of generated.plans.get(name)!.values()) {
      it(describePath(start as never, path.steps as never, describeState), () => replay(model, input as InputFrom<M>, start as S, path, taken));
    }
  });

  afterAll(() => {
    const Name = model.name[0].toUpperCase() + model.name.slice(1);
    const tests = [...generated.plans.values()].reduce((n, p) => n + p.size, 0);
    const states = [...generated.walks.values()].reduce((n, w) => n + w.nodes.length, 0);
    console.log(`${Name} paths: ${tests} generated from ${states} model states in ${generated.generationMs.toFixed(0)} ms`);
    const missing = [...defined].filter((t) => !taken.has(t));
    const pct = ((defined.size - missing.length) / defined.size) * 100;
    console.log(`${Name} transition coverage: ${defined.size - missing.length}/${defined.size} (${pct.toFixed(1)}%)`);
    if (missing.length) console.log(`Not taken:\n  ${missing.join('\n  ')}`);
    expect(missing).toEqual([]);
  });
  return generated;
}
