import type { BookingFlight } from './flights';

// A driver's job and its statuses (issue 41 §2): the one rule of which step may follow which, asked by the driver's
// page before it shows a button and enforced by the server. A job is 'assigned' when the office dispatches it; the
// driver accepts or declines it, then goes On my way, Arrived, Passenger on board, Completed, or No-show once the free
// waiting time since Arrived has passed. A job of a booking that is no longer confirmed (cancelled, finished by the
// office) takes no step.
export const JOB_STATUSES = ['assigned', 'accepted', 'declined', 'on_way', 'arrived', 'on_board', 'completed', 'no_show'] as const;
export type JobStatus = typeof JOB_STATUSES[number];
export const isJobStatus = (s: unknown): s is JobStatus => typeof s === 'string' && (JOB_STATUSES as readonly string[]).includes(s);

/** What the driver taps: each moves the job to the status of the same name. */
export const JOB_STEPS = ['accepted', 'declined', 'on_way', 'arrived', 'on_board', 'completed', 'no_show'] as const;
export type JobStep = typeof JOB_STEPS[number];
export const isJobStep = (s: unknown): s is JobStep => typeof s === 'string' && (JOB_STEPS as readonly string[]).includes(s);

/** The button of each step, on the driver's page. */
export const STEP_LABELS: Record<JobStep, string> = {
  accepted: 'Accept', declined: 'Decline', on_way: 'On my way', arrived: 'Arrived', on_board: 'Passenger on board',
  completed: 'Completed', no_show: 'No-show',
};

/** Where a job stands, in words for the driver, the office and the passenger. */
export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  assigned: 'Waiting for the driver to accept', accepted: 'Accepted by the driver', declined: 'Declined by the driver',
  on_way: 'Driver on the way', arrived: 'Driver at the pickup', on_board: 'Passenger on board', completed: 'Completed', no_show: 'No-show',
};

/** Steps that cannot be undone and finish or give up the job: the page asks "Are you sure?" first. */
export const CONFIRMED_STEPS: readonly JobStep[] = ['declined', 'completed', 'no_show'];

const FOLLOWS: Record<JobStatus, JobStep[]> = {
  assigned: ['accepted', 'declined'],
  accepted: ['on_way'],
  on_way: ['arrived'],
  arrived: ['on_board', 'no_show'],
  on_board: ['completed'],
  declined: [], completed: [], no_show: [],
};

export interface JobState {
  /** The booking's own status (operatorDesk.ts): only a confirmed booking's job moves. */
  bookingStatus: string;
  jobStatus: JobStatus;
  /** When the driver said Arrived (ISO), and the free waiting the booking was made with. */
  arrivedAt: string | null;
  freeWaitingMinutes: number;
  /** An airport pickup's flight landed (ISO, as the flight status service said; issue 42), else null. */
  landedAt?: string | null;
}

/** A driver who arrives after an airport passenger's free waiting has run out still waits this long. */
export const LATE_ARRIVAL_WAIT_MINUTES = 10;

/**
 * When a No-show may be tapped: the free waiting time has passed since Arrived or, at an airport pickup whose flight
 * is known to have landed, since the landing (issue 42), and then no sooner than 10 minutes after Arrived.
 */
export function noShowFrom(job: Pick<JobState, 'arrivedAt' | 'freeWaitingMinutes' | 'landedAt'>): Date | null {
  if (!job.arrivedAt) return null;
  const arrived = Date.parse(job.arrivedAt);
  if (!job.landedAt) return new Date(arrived + job.freeWaitingMinutes * 60_000);
  return new Date(Math.max(Date.parse(job.landedAt) + job.freeWaitingMinutes * 60_000, arrived + LATE_ARRIVAL_WAIT_MINUTES * 60_000));
}

/** The steps the driver may take now, in the order the page shows them. */
export function nextSteps(job: JobState, now: Date): JobStep[] {
  if (job.bookingStatus !== 'confirmed') return [];
  return FOLLOWS[job.jobStatus].filter((step) => step !== 'no_show' || (noShowFrom(job)?.getTime() ?? Infinity) <= now.getTime());
}

/** Why a step is refused, in words (a 409 when the job is not at that step any more). */
export function stepRefusal(job: JobState, step: JobStep, now: Date): string | null {
  if (nextSteps(job, now).includes(step)) return null;
  if (job.bookingStatus === 'cancelled') return 'This job was cancelled by the office.';
  if (job.bookingStatus !== 'confirmed') return 'This job is finished: nothing more can be done to it.';
  if (step === 'no_show' && job.jobStatus === 'arrived') {
    const from = noShowFrom(job)!;
    const minutes = Math.max(1, Math.ceil((from.getTime() - now.getTime()) / 60_000));
    return `The passenger has free waiting time: No-show can be tapped in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return `This job is "${JOB_STATUS_LABELS[job.jobStatus]}": ${STEP_LABELS[step]} cannot be tapped now. Reload to see where it stands.`;
}

/**
 * A job as the driver's page shows it (GET /driver/jobs): what a driver needs and nothing more (no other price than the
 * amount to collect in the car, no other passenger's data), and the steps they may take now.
 */
export interface DriverJob {
  reference: string; status: JobStatus; status_label: string; cancelled: boolean; finished: boolean;
  pickup_date: string; pickup_time: string; pickup: string; stops: string[]; dropoff: string | null; hourly: string | null;
  flight: string | null; sign: string | null; passengers: number; luggage: string; extras: string[]; notes: string;
  passenger_name: string; passenger_phone: string;
  /** Pay-in-car jobs: what to collect (e.g. "£62.00"); null when paid already. */
  collect: string | null;
  /** The vehicle type booked, and the car the office dispatched ("White Toyota Prius, LF68 TXI"). */
  vehicle: string; car: string | null; steps: JobStep[];
  /** When No-show may be tapped (ISO), once Arrived. */
  no_show_from: string | null;
  /** An airport pickup's flight (issue 42): its status, and the pickup as it stands beside the time booked. */
  flight_status: BookingFlight | null;
  /** The driver may report an item found in the car (issue 43 §3: casework.ts mayReportFound). */
  can_report_found: boolean;
}
