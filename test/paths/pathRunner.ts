// QA's generated paths in Chromium. The paths come from the same models as the Node replays
// (test/machine/models, walked by test/machine/modelPaths.ts); here each runs on the real page against the real
// server, and the coverage is what the page's own machines did.
//
// - Selection: for each transition of the machine, shortest first, the shortest generated path taking it, unless
//   a path already chosen takes it on the way (so every transition is on at least one path).
// - A model input is a way to open the page (settings switched through the admin route, storage written under
//   SPEC 3's keys from real server data, a session from a real sign-in, the URL typed); a model event is what a
//   person does (typing, choosing, clicking by role and label, Back/Forward); a service's answer is the real
//   server's, and a failure is one the server is asked to produce (./faults.ts).
// - After each step the runner waits until the page's machine has taken the step's transitions (XState's
//   inspection API, installed by an init script; src/web/main.tsx passes it on) and is in the step's state, then
//   checks what a person sees there: the screen the model's oracle expects (./screens.ts), from what the person did
//   and what the server answered, never the machine's state or context.
// - It prints each path as a sentence, its time, and per machine the transitions the page took (must be 100%).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AnyMachineSnapshot, AnyStateMachine, InputFrom, SnapshotFrom } from 'xstate';
import {
  allTransitions, describeEvent, describePath, generate, serializeEvent, type Model, type ModelEvent, type Step, type Trail,
} from '../machine/modelPaths';
import { launchBrowser } from '../e2e/harness';
import { pathServer, type PathServer } from './server';
import { describeExpected, isWaiting, seeScreen, serviceOf, type Expected } from './screens';

/** What a step of a path knows when it acts. */
export interface ActContext<S> {
  /** The event after this one: a service's answer that this step's action must arrange (a failure, a found e-mail...). */
  next: ModelEvent | undefined;
  /** The answers that follow this step before the person acts again (`next` is the first), to arrange together. */
  then: ModelEvent[];
  trail: Trail<S>;
}
export type Act<S> = (p: PathPage, ctx: ActContext<S>) => Promise<void>;

export interface BrowserModel<M extends AnyStateMachine> {
  model: Model<M>;
  /** Opens the page as the input says: settings, storage, session, then the URL typed (`next`: the path's first event). */
  open: (p: PathPage, inputName: string, input: InputFrom<M>, ctx: { next: ModelEvent | undefined; then: ModelEvent[] }) => Promise<void>;
  /** What a person can do in a state, of the events it handles (see `Model.allows`). */
  allows?: Model<M>['allows'];
  /** What `allows` reads that the model's serialize does not tell apart. */
  tellsApart?: (s: SnapshotFrom<M>) => unknown;
  /**
   * Events no person sends and no held call answers: what a live stream or the phone's sensors tell the page (issue
   * 41), by type, and the transitions only they lead to, by id. Their transitions are left out of these paths and of
   * their coverage; the model tests take every one, and
   * e2e/live-tracking.test.ts drives them in Chromium through the real streams and a real job's day.
   */
  outsideThePage?: string[];
  /** What a person does for each model event, by the event's description (`describeEvent`). Answers default to waiting. */
  acts: Record<string, Act<SnapshotFrom<M>>>;
  /**
   * What the page shows, from what the person did and what the server answered, apart from the machine (issue 28):
   * checked at every step where the page has settled.
   */
  oracle: PathOracle<InputFrom<M>, any>;
  /**
   * The calls a path holds with a 'delay' fault, by the name of the service that makes them: the path acts while
   * one is on its way, and the service's answer step releases it, so no step depends on how fast the machine is.
   */
  heldCalls?: Record<string, { method: string; path: string }[]>;
  /** The window's width in px (1280 by default). */
  width?: number;
}

/**
 * A path's oracle: the screen a person sees (./screens.ts), or the answer the page waits for, from the input the page
 * was opened with and each event of the path in turn. It reads no machine: a machine that goes elsewhere than SPEC
 * says shows another screen, or waits where the path goes on, or settles where SPEC waits.
 */
export interface PathOracle<I, E extends Expected = Expected> {
  /** The call each awaited service makes to the server: a page waiting for it must have asked (a positive sign). */
  calls?: Record<string, { method: string; path: string | RegExp }>;
  /** Waits the page answers itself (a read of the tab's storage): over at once, so a path may end on one unchecked. */
  localWaits?: string[];
  /** Services the page calls beside what it shows (the console's filters): their answers may follow any screen. */
  background?: string[];
  /** The model's answers of each service by the oracle's name of it, where the machine's invoke ids are not those names. */
  services?: Record<string, { done: (o?: unknown) => { type: string }; fails: (x: unknown) => { type: string } }>;
  opens: (inputName: string, input: I) => E;
  /** What follows `event` on the page that showed `before`; undefined when SPEC has no such event there. */
  after: (before: E, event: ModelEvent, ctx: { input: I; events: readonly ModelEvent[] }) => E | undefined;
}

/** Records what the page's machines do: each transition taken, and each snapshot's state value, by machine id. */
function installRecorder() {
  type Entry = { m: string; t?: string; v?: string };
  const log: Entry[] = [];
  (window as unknown as { __qa: Entry[] }).__qa = log;
  (window as unknown as { __xstateInspect: (ev: Record<string, any>) => void }).__xstateInspect = (ev) => {
    const logic = ev.actorRef?.logic;
    if (!logic?.root) return;
    const m = logic.id as string;
    if (ev.type === '@xstate.microstep') {
      for (const t of ev._transitions) {
        const list = t.eventType === '' ? t.source.always ?? [] : t.source.transitions.get(t.eventType) ?? [];
        log.push({ m, t: `${t.source.id} ${t.eventType || '(always)'} #${list.indexOf(t)}` });
      }
    } else if (ev.type === '@xstate.snapshot' && ev.snapshot?.value !== undefined) {
      log.push({ m, v: JSON.stringify(ev.snapshot.value) });
    }
  };
}

type Entry = { m: string; t?: string; v?: string };

/** The page a path runs on, with the person's actions and SPEC's checks the models share. */
export class PathPage {
  private cursor = 0;
  /** Every transition the page's machines took since the path opened the page, by machine id. */
  readonly taken = new Map<string, Set<string>>();
  /** What the path made on the way (an account, a code read from the mail), for its later steps. */
  readonly data: Record<string, any> = {};
  /** Every request the page made to the server, in order (what a waiting page asked for). */
  readonly requests: { method: string; path: string }[] = [];
  /** How many of `requests` an awaited call has been found among (from the last page load). */
  callsSeen = 0;
  /** The screens whose awaited call has been found (a screen seen again after a background answer is not asked twice). */
  readonly callsChecked = new WeakSet<object>();

  constructor(readonly page: Page, readonly server: PathServer, readonly machineId: string) {
    page.on('request', (r) => { this.requests.push({ method: r.method(), path: new URL(r.url()).pathname }); });
  }

  get url() { return new URL(this.page.url()); }

  /** Types a URL into the address bar: a new page load (the log starts again). */
  async typeUrl(pathAndQuery: string) {
    this.callsSeen = this.requests.length;
    await this.page.goto(this.server.url + pathAndQuery);
    this.cursor = 0;
  }

  /**
   * Goes to a page the visitor has in the tab's history with Back: the entry is put behind the current one, and
   * Back is pressed (the app sees a popstate, as with a real Back).
   */
  async back(pathAndQuery: string) {
    await this.page.evaluate((to) => {
      const here = window.location.pathname + window.location.search;
      const state = window.history.state;
      window.history.replaceState(state, '', to);
      window.history.pushState(state, '', here);
    }, pathAndQuery);
    await this.page.goBack();
  }

  private async log(): Promise<Entry[]> {
    return this.page.evaluate(() => (window as unknown as { __qa?: Entry[] }).__qa ?? []);
  }

  private record(entries: Entry[]) {
    for (const e of entries) {
      if (!e.t) continue;
      if (!this.taken.has(e.m)) this.taken.set(e.m, new Set());
      this.taken.get(e.m)!.add(e.t);
    }
  }

  /**
   * Waits until the page's machine has taken these transitions in this order and shows `value`. The wait is long: on a
   * machine whose cores are busy a page's first load can take many seconds, and no test may depend on speed.
   */
  async reaches(transitions: readonly string[], value: unknown, timeout = 60_000) {
    const want = JSON.stringify(value);
    const deadline = Date.now() + timeout;
    for (;;) {
      const log = await this.log();
      this.record(log);
      let at = this.cursor;
      let matched = 0;
      let lastMatch = -1;
      for (; at < log.length && matched < transitions.length; at++) {
        if (log[at].m === this.machineId && log[at].t === transitions[matched]) {
          matched++;
          lastMatch = at;
        }
      }
      if (matched === transitions.length) {
        const from = lastMatch + 1;
        const snapshot = log.slice(Math.max(from, this.cursor)).find((e) => e.m === this.machineId && e.v !== undefined);
        // With no transitions to take, the state is the one at the cursor (the page may already be past a state
        // that only waits for an answer, on a slow machine) or the latest one.
        const values = log.slice(this.cursor).filter((e) => e.m === this.machineId && e.v !== undefined).map((e) => e.v);
        const current = transitions.length ? [snapshot?.v] : [values[0], values.at(-1)];
        if (current.includes(want)) {
          this.cursor = transitions.length ? from : this.cursor;
          return;
        }
      }
      if (Date.now() > deadline) {
        const since = log.slice(this.cursor).filter((e) => e.m === this.machineId).map((e) => e.t ?? `= ${e.v}`);
        throw new Error(`the page's ${this.machineId} machine did not take ${JSON.stringify(transitions)} into ${want}; it did:\n  ${since.join('\n  ')}`);
      }
      await this.page.waitForTimeout(25);
    }
  }

  // --- What a person sees (auto-waiting checks) ----------------------------------------------------------------

  /** The address bar shows this path (and query, when given). */
  async at(path: string, search?: string | RegExp) {
    await expect.poll(() => this.url.pathname, { timeout: 10_000 }).toBe(path);
    if (search instanceof RegExp) expect(this.url.search).toMatch(search);
    else if (search !== undefined) expect(this.url.search).toBe(search);
  }

  async heading(name: string | RegExp) {
    await this.page.getByRole('heading', { name, exact: typeof name === 'string' ? true : undefined }).first().waitFor({ timeout: 10_000 });
  }

  /** A dialog (alertdialog) with this title is open, and shows each text. */
  async dialog(title: string, ...texts: (string | RegExp)[]) {
    const dialog = this.page.getByRole('alertdialog', { name: title });
    await dialog.waitFor({ timeout: 10_000 });
    for (const text of texts) {
      await expect.poll(async () => (await dialog.textContent()) ?? '', { timeout: 10_000 })[typeof text === 'string' ? 'toContain' : 'toMatch'](text as never);
    }
  }

  /**
   * No dialog is open. The runner has seen the machine reach the step's state (`reaches`); two painted frames after
   * that, React has rendered it, so a dialog the state opens would be on the page: only then is none looked for.
   * A dialog still closing is waited out.
   */
  async noDialog() {
    await this.page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    await expect.poll(() => this.page.getByRole('alertdialog').count(), { timeout: 10_000 }).toBe(0);
  }

  /** The text is on the page and visible. */
  async sees(text: string | RegExp) {
    await this.page.getByText(text, { exact: typeof text === 'string' ? false : undefined }).first().waitFor({ timeout: 10_000 });
  }

  /** Closes the open dialog with its button, as a person would. */
  async closeDialog(button = 'OK') {
    await this.page.getByRole('alertdialog').getByRole('button', { name: button }).click();
  }
}

/** A path chosen to run, with the transitions it takes on the way. */
interface Chosen<S> { inputName: string; start: S; startTaken: string[]; steps: Step<S>[]; targets: string[] }

/** Per transition, shortest first, the shortest generated path for it unless a chosen path takes it on the way. */
export function choosePaths<M extends AnyStateMachine>(model: Model<M>, inPage: (transition: string) => boolean = () => true): Chosen<SnapshotFrom<M>>[] {
  const generated = generate(model);
  const candidates = [...generated.plans].flatMap(([inputName, plans]) => [...plans.values()].map((path) => ({
    inputName,
    start: generated.walks.get(inputName)!.start,
    startTaken: generated.walks.get(inputName)!.startTaken,
    steps: path.steps,
    targets: path.transitions,
  })));
  candidates.sort((a, b) => a.steps.length - b.steps.length);
  const covered = new Set<string>();
  const chosen: Chosen<SnapshotFrom<M>>[] = [];
  for (const c of candidates) {
    if (c.targets.every((t) => covered.has(t))) continue;
    chosen.push(c);
    for (const t of [...c.startTaken, ...c.steps.flatMap((s) => s.taken ?? [])]) covered.add(t);
  }
  const missing = allTransitions(model.machine.root).filter((t) => inPage(t) && !covered.has(t));
  if (missing.length) throw new Error(`no generated path takes ${missing.join(', ')}`);
  // A path that another chosen path starts with (from the same input) adds nothing: it goes, the longer one stays.
  const key = (c: Chosen<unknown>) => [c.inputName, ...c.steps.map((s) => serializeEvent(s.event))];
  const startsWith = (long: string[], short: string[]) => long.length > short.length && short.every((k, i) => long[i] === k);
  return chosen.filter((c) => !chosen.some((other) => startsWith(key(other), key(c))));
}

const isAnswer = (e: ModelEvent | undefined) => !!e && /^xstate\.(done|error)\.actor\./.test(e.type);
const isTime = (e: ModelEvent | undefined) => !!e && e.type.startsWith('xstate.after.');

/**
 * Checks the oracle's screen where the page has settled. Where it waits, what comes next must be an answer (or time
 * passing), and the page must have asked the server for it; a person acting next, or the path ending on a state its
 * model does not call busy, means the page settled where SPEC waits. A settled screen followed by an answer means the
 * page waits where SPEC says it has settled (time may pass on a settled screen: a message shown for a while).
 */
async function checkExpected(
  p: PathPage, { calls, localWaits, background, services }: Pick<PathOracle<unknown>, 'calls' | 'localWaits' | 'background' | 'services'>,
  expected: Expected,
  next: ModelEvent | undefined, state: AnyMachineSnapshot,
) {
  const answerNext = isAnswer(next) || isTime(next);
  const answering = next && isAnswer(next) ? (services && serviceOf(next, services)) ?? next.type.replace(/^xstate\.(done|error)\.actor\./, '') : undefined;
  const from = (service: string | undefined) => service !== undefined && answering === service;
  // The page asked the server for what it waits for: the calls come in the order of the waits, from the page load.
  const asks = async (service: string) => {
    const call = calls?.[service];
    if (!call || p.callsChecked.has(expected)) return !!call;
    p.callsChecked.add(expected);
    const asked = () => p.requests.findIndex((r, i) => i >= p.callsSeen && r.method === call.method
      && (typeof call.path === 'string' ? r.path === call.path : call.path.test(r.path)));
    const calledAfter = () => p.requests.slice(p.callsSeen).filter((r) => !/\.(js|css|png|svg|woff2?)$/.test(r.path));
    await expect.poll(asked, { timeout: 10_000, message: `SPEC: the page waits for ${service}, so it asks ${call.method} ${call.path} (it asked ${JSON.stringify(calledAfter())})` })
      .toBeGreaterThanOrEqual(0);
    p.callsSeen = asked() + 1;
    return true;
  };
  if (isWaiting(expected)) {
    if (!answerNext && next) throw new Error(`SPEC: the page waits for ${expected.waiting} here, but the path goes on with "${describeEvent(next)}"`);
    if (!(await asks(expected.waiting)) && !next && !state.hasTag('busy') && !localWaits?.includes(expected.waiting)) {
      throw new Error(`SPEC: the page waits for ${expected.waiting} here, but the page settled`);
    }
    return;
  }
  const allowed = from(expected.awaits) || (background ?? []).some(from);
  if (isAnswer(next) && !allowed) throw new Error(`SPEC: the page has settled on ${describeExpected(expected)}, but "${describeEvent(next!)}" follows`);
  const loads = expected.awaits !== undefined && (await asks(expected.awaits));
  // A load's answer coming next may already have changed the page: the screen is seen where the person acts on it.
  if (!(loads && from(expected.awaits))) await seeScreen(p, expected);
}
/** The answers at the start of these events, before the person acts again. */
const answersFirst = (events: ModelEvent[]) => {
  const acts = events.findIndex((e) => !isAnswer(e));
  return acts < 0 ? events : events.slice(0, acts);
};

/**
 * Registers one test per chosen path of the model, run in Chromium on the shared test server; after them, prints
 * the transitions of the machine the page took on those paths, which must be all of them.
 */
export function browserPaths<M extends AnyStateMachine>(bm: BrowserModel<M>) {
  type S = SnapshotFrom<M>;
  const { model } = bm;
  const machineId = model.machine.id;
  const { tellsApart } = bm;
  const outside = new Set(bm.outsideThePage ?? []);
  // By the event's type, or a whole transition id (one only those events lead to).
  const inPage = (t: string) => !outside.has(t.split(' ')[1]) && !outside.has(t);
  const chosen = choosePaths({
    ...model,
    allows: (s, e) => !outside.has((e as { type: string }).type) && (bm.allows?.(s, e) ?? true),
    serialize: tellsApart ? (s: SnapshotFrom<M>) => `${model.serialize(s)}\n${JSON.stringify(tellsApart(s))}` : model.serialize,
  }, inPage);
  const defined = allTransitions(model.machine.root).filter(inPage);
  const taken = new Set<string>();
  const server = pathServer();
  let browser: Browser;
  let ran = 0;
  let ms = 0;
  beforeAll(async () => { browser = await launchBrowser(); });

  describe(`${model.name} in Chromium`, () => {
    for (const path of chosen) {
      const input = model.inputs[path.inputName] as InputFrom<M>;
      const name = `${path.inputName}: ${describePath(path.start as never, path.steps as never, model.describeState as never)}`;
      it(name, async () => {
        const began = performance.now();
        let context: BrowserContext | undefined;
        try {
          context = await browser.newContext({ viewport: { width: bm.width ?? 1280, height: 900 } });
          await context.addInitScript(installRecorder);
          const page = await context.newPage();
          const p = new PathPage(page, server, machineId);
          await bm.open(p, path.inputName, input, { next: path.steps[0]?.event, then: answersFirst(path.steps.map((x) => x.event)) });
          const opening = path.start as AnyMachineSnapshot;
          await p.reaches(path.startTaken, opening.value);
          const { oracle } = bm;
          let expected = oracle.opens(path.inputName, input);
          await checkExpected(p, oracle, expected, path.steps[0]?.event, opening);
          const trail: Step<S>[] = [];
          for (const [i, step] of path.steps.entries()) {
            const event = describeEvent(step.event);
            const act = bm.acts[event] ?? (isAnswer(step.event) ? async () => {} : undefined);
            if (!act) throw new Error(`no browser act for the model event "${event}"`);
            const then = answersFirst(path.steps.slice(i + 1).map((x) => x.event));
            try {
              // A failure asked for lasts until the person acts again.
              if (!isAnswer(step.event)) await server.clearFaults();
              // An answer ("calculatePrice done ...") lets the calls its service made that the path held go on.
              else for (const call of bm.heldCalls?.[event.split(' ')[0]] ?? []) await server.release(call);
              await act(p, { next: path.steps[i + 1]?.event, then, trail });
              trail.push(step);
              await p.reaches(step.taken ?? [], (step.state as AnyMachineSnapshot).value);
              const before: Expected = expected;
              const after = oracle.after(before, step.event, { input, events: trail.map((x) => x.event) });
              if (!after) throw new Error(`SPEC has no "${event}" on ${describeExpected(before)}`);
              expected = after;
              await checkExpected(p, oracle, expected, path.steps[i + 1]?.event, step.state as AnyMachineSnapshot);
            } catch (e) {
              const shot = join(tmpdir(), `path-failed-${machineId}-${chosen.indexOf(path) + 1}.png`);
              await p.page.screenshot({ path: shot, fullPage: true }).catch(() => {});
              if (e instanceof Error) e.message = `at step ${i + 1} (${event}), page in ${shot}: ${e.message}`;
              throw e;
            }
          }
          for (const t of p.taken.get(machineId) ?? []) taken.add(t);
        } finally {
          await context?.close();
          await server.reset();
          ran++;
          ms += performance.now() - began;
        }
      }, 60_000);
    }
  });

  afterAll(async () => {
    await browser?.close();
    const Name = model.name[0].toUpperCase() + model.name.slice(1);
    console.log(`${Name} in Chromium: ${ran} of ${chosen.length} paths in ${(ms / 1000).toFixed(1)} s`);
    const missing = defined.filter((t) => !taken.has(t));
    const pct = ((defined.length - missing.length) / defined.length) * 100;
    console.log(`${Name} transition coverage in Chromium: ${defined.length - missing.length}/${defined.length} (${pct.toFixed(1)}%)`);
    if (missing.length) console.log(`Not taken in the page:\n  ${missing.join('\n  ')}`);
    // A subset run (--grep) reports its coverage; the full run must take every transition.
    if (ran === chosen.length) expect(missing).toEqual([]);
  });
}
