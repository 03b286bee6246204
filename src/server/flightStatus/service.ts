// The flight status service (issue 42 §1, decision 58): one interface, chosen once at start-up as the distance service
// is. FlightAware AeroAPI when its key is set (./aeroapi.ts); the local test flight service (./testService.ts,
// FLIGHT_STATUS=test, the default where no key is set) whose flights a test or a demo scripts; or none, when flight
// numbers stay text as they were before (FLIGHT_STATUS=none). What a provider answers is checked here before anything
// believes it: an answer that is not a flight (nonsense) counts as no answer.
import { boolean, enums, nullable, object, optional, string, is } from 'superstruct';
import { FLIGHT_STATUSES, type Airport, type FlightState } from '../../domain/flights';

/** What a service says of one flight number on one UK date at one airport. */
export type FlightAnswer =
  | { found: true; flight: FlightState }
  /** No flight of that number lands at that airport that day (a typo, another airport, another day). */
  | { found: false }
  /** The date is beyond what the provider knows yet (AeroAPI: two days ahead): asked again nearer the day. */
  | { found: null };

export interface FlightStatusService {
  /** How the start line and the README name it. */
  name: string;
  /** The provider whose allowance a call counts against (provider_calls). */
  provider: string;
  /** Days ahead the provider knows flights; a later date is answered { found: null } without a call. */
  horizonDays: number;
  /** One lookup; throws when the provider fails (an error, no answer within the timeout). */
  lookup(ident: string, date: string, airport: Airport, now: Date): Promise<FlightAnswer>;
}

const ISO = string();
const FlightStateShape = object({
  status: enums(FLIGHT_STATUSES), origin: nullable(string()), scheduledIn: ISO, estimatedIn: nullable(ISO), actualIn: nullable(ISO),
  terminal: nullable(string()),
});
const AnswerShape = object({ found: nullable(boolean()), flight: optional(FlightStateShape) });

/** Whether an answer is one (times that are times, a status of ours): what else a provider says is a fault. */
export function checkedAnswer(answer: unknown): FlightAnswer {
  if (!is(answer, AnswerShape)) throw new Error('the flight status service answered something that is not a flight');
  if (answer.found !== true) return { found: answer.found } as FlightAnswer;
  const f = answer.flight;
  const times = [f?.scheduledIn, f?.estimatedIn, f?.actualIn].filter((t): t is string => typeof t === 'string');
  if (!f || times.some((t) => !Number.isFinite(Date.parse(t)))) throw new Error('the flight status service answered times that are not times');
  // One way of writing an instant (AeroAPI leaves out the milliseconds): an answer the same as the last is no change.
  const same = (t: string | null) => (t === null ? null : new Date(t).toISOString());
  return { found: true, flight: { ...f, scheduledIn: same(f.scheduledIn)!, estimatedIn: same(f.estimatedIn), actualIn: same(f.actualIn) } };
}

/** Waits for a lookup at most `ms`: a provider that does not answer is a fault like one that fails. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms); });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export const FLIGHT_SERVICE_NAMES = ['aeroapi', 'test', 'none'] as const;
export type FlightServiceName = typeof FLIGHT_SERVICE_NAMES[number];
