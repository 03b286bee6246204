// The corporate area's Journeys and expenses: machines/accountJourneys.ts's generated paths in Chromium
// (./pathRunner.ts), issue 44 §3, as the demo booker of Northbridge Consulting, whose account asks for a PO number.
// The server's answers are real where the demo gives them (every journey, the PO number's, none in May 2030, the CSV);
// the rest are asked of it (a list where the demo has none, none where it has some, a dropped call, a 401, a date
// refused on its field).
import type { AnyEventObject } from 'xstate';
import { JOURNEYS_NOTICES } from '../../machines/accountJourneys';
import { isNoFilter, journeyFilterProblem, NO_FILTER, type JourneyFilter, type JourneysAnswer } from '../../src/domain/expenses';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { downloadJourneysCsv, fetchJourneys, model } from '../machine/models/accountJourneys';
import type { ModelEvent } from '../machine/modelPaths';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import { isWaiting, type Expected } from './screens';
import { openAsReturningVisitor } from './storage';
import { signIn } from './data';

const API = '/api/v1';
const LIST = { method: 'GET', path: `${API}/account/journeys` };
const CSV = { method: 'GET', path: `${API}/account/journeys.csv` };
const LABELS: Record<keyof JourneyFilter, string> = { from: 'From', to: 'To', field: 'Field', value: 'Value' };
const SIGN_IN_AGAIN = `?redirect=${encodeURIComponent('/bookings/journeys')}`;

type Answer = { type: string; output?: JourneysAnswer; error?: Error & { status?: number; field?: string } };
const answerOf = (then: ModelEvent[], service: typeof fetchJourneys | typeof downloadJourneysCsv) =>
  then.find((e) => e.type === service.done().type || e.type === service.fails(null).type) as Answer | undefined;
const filterOf = (e: ModelEvent): JourneyFilter => {
  const { from, to, field, value } = e as unknown as JourneyFilter;
  return { from, to, field, value };
};
/** Whether the demo booker's real journeys answer this filter with some: all of them, or the PO number's. */
const demoHasSome = (f: JourneyFilter) => isNoFilter(f) || (f.field === 'PO number' && f.value === 'PO-4471');

/** The answers to the calls a person's act starts: the server's own where the demo gives them, else asked of it. */
async function arrange(p: PathPage, then: ModelEvent[], asked: JourneyFilter) {
  const list = answerOf(then, fetchJourneys);
  if (list?.error) {
    const { status, field, message } = list.error;
    await p.server.fault(status ? { ...LIST, kind: 'status', status, message, field } : { ...LIST, kind: 'drop' });
  } else if (list?.output && list.output.journeys.length > 0 !== demoHasSome(asked)) {
    await p.server.fault({ ...LIST, kind: 'answer', body: list.output });
  }
  const csv = answerOf(then, downloadJourneysCsv);
  if (csv?.error) {
    const { status, message } = csv.error;
    await p.server.fault(status ? { ...CSV, kind: 'status', status, message } : { ...CSV, kind: 'drop' });
  }
}

type JourneysExpected = Expected & {
  /** The filter asked for last, and the filter of the list on screen. */
  asked: JourneyFilter; shown: JourneyFilter;
  /** A list is on screen (with journeys or not). */
  listed: boolean;
};

/**
 * Issue 44 §3: what the Journeys page shows after each act and answer, written apart from the machine: a filter the
 * form's rule refuses is refused on its field and nothing is asked; the list's count, or why there is none; a date the
 * server refuses on its field; a failure with Try again; a 401 back to sign in, to come back here.
 */
const oracle: PathOracle<unknown, JourneysExpected> = {
  calls: { fetchJourneys: { ...LIST }, downloadJourneysCsv: { ...CSV } },
  opens: () => ({ waiting: 'fetchJourneys', asked: NO_FILTER, shown: NO_FILTER, listed: false }),
  after(before, e) {
    const { asked, shown, listed } = before;
    const keep = { asked, shown, listed };
    const page = (more: Partial<JourneysExpected>): JourneysExpected => ({ screen: 'journeys', search: '', ...keep, ...more } as JourneysExpected);
    const answer = e as unknown as Answer;
    const service = e.type.startsWith('xstate.') ? (answerOf([e], fetchJourneys) ? 'fetchJourneys' : answerOf([e], downloadJourneysCsv) ? 'downloadJourneysCsv' : null) : null;
    if (service) {
      if (!isWaiting(before) || before.waiting !== service) return undefined;
      if (answer.error?.status === 401) return { screen: 'login', search: SIGN_IN_AGAIN, ...keep } as JourneysExpected;
      if (service === 'downloadJourneysCsv') {
        return answer.error ? page({ alerts: [answer.error.message] }) : page({ statuses: [JOURNEYS_NOTICES.downloaded] });
      }
      if (answer.error) {
        const field = answer.error.field as keyof JourneyFilter | undefined;
        // Refused on a field of the form: shown under it, and the list on screen stays.
        if (field && listed) return page({ fieldErrors: { [LABELS[field]]: answer.error.message } });
        return page({ alerts: ['We could not load your journeys.', answer.error.message], buttons: ['Try again'] });
      }
      const count = answer.output!.journeys.length;
      if (count === 0) return page({ shown: asked, listed: true, texts: [isNoFilter(asked) ? 'No journeys yet' : 'No journeys match this filter'] });
      return page({ shown: asked, listed: true, statuses: [/newest first\.$/], buttons: ['Download CSV'] });
    }
    if (isWaiting(before) || before.screen !== 'journeys') return undefined;
    if (e.type === 'journeys.filter') {
      const problem = journeyFilterProblem(filterOf(e));
      if (problem) return page({ fieldErrors: { [LABELS[problem.field]]: problem.message } });
      return { waiting: 'fetchJourneys', ...keep, asked: filterOf(e) };
    }
    if (e.type === 'journeys.csv') return { waiting: 'downloadJourneysCsv', ...keep };
    if (e.type === 'journeys.retry') return { waiting: 'fetchJourneys', ...keep };
    return undefined;
  },
};

/** The filter asked for last on the way here (the one a Try again asks for again). */
const askedSoFar = (trail: readonly { event: ModelEvent }[]) =>
  trail.map((x) => x.event).filter((e) => e.type === 'journeys.filter' && !journeyFilterProblem(filterOf(e))).map(filterOf).at(-1) ?? NO_FILTER;

async function applyFilter(p: PathPage, f: JourneyFilter, then: ModelEvent[]) {
  if (!journeyFilterProblem(f)) await arrange(p, then, f);
  const form = p.page.getByRole('form', { name: 'Filter journeys' });
  if (isNoFilter(f)) {
    await form.getByRole('button', { name: 'Clear' }).click();
    return;
  }
  await form.getByLabel('From', { exact: true }).fill(f.from);
  await form.getByLabel('To', { exact: true }).fill(f.to);
  // Field and Value are there when the account has fields (allows: only then does a filter name one).
  const field = form.getByLabel('Field', { exact: true });
  if (f.field || f.value || (await field.count())) {
    await field.selectOption(f.field);
    await form.getByLabel('Value', { exact: true }).fill(f.value);
  }
  await form.getByRole('button', { name: 'Show journeys' }).click();
}

browserPaths({
  model,
  // The form's Field and Value are there once the account's fields are known (a list has been answered).
  allows: (s, e) => {
    const ev = e as AnyEventObject;
    if (ev.type === 'journeys.filter' && (ev.field || ev.value)) return s.context.answer !== null;
    return true;
  },
  async open(p, _name, _input, { then }) {
    const session = await signIn(p.server, DEMO_CORPORATE.email, DEMO_CORPORATE.password);
    await arrange(p, then, NO_FILTER);
    await openAsReturningVisitor(p, '/bookings/journeys', { session });
  },
  acts: {
    ...Object.fromEntries(model.events.filter((e) => e.type === 'journeys.filter').map((e) => [
      // The model's own names of its filters (describeEvent): 'journeys.filter PO number PO-4471', 'journeys.filter'...
      ['journeys.filter', ...Object.values(filterOf(e)).filter(Boolean)].join(' '),
      (p: PathPage, { then }: { then: ModelEvent[] }) => applyFilter(p, filterOf(e), then),
    ])),
    'journeys.csv': async (p, { then, trail }) => {
      await arrange(p, then, askedSoFar(trail));
      await p.page.getByRole('button', { name: 'Download CSV' }).click();
    },
    'journeys.retry': async (p, { then, trail }) => {
      await arrange(p, then, askedSoFar(trail));
      await p.page.getByRole('button', { name: 'Try again' }).click();
    },
  },
  oracle,
});
