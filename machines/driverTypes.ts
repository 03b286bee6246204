// The driver's page's machine (./driver.ts): what it is given by the server (src/server/driver/routes.ts: the driver
// signed in, a job, a refusal), what it keeps, and the events its screens send.
import type { JobStatus, JobStep } from '../src/domain/driverJobs';
import type { Location } from '../src/domain/screens';

/** Who is signed in on this device (GET /driver/session). */
export interface DriverMember { name: string; company_name: string }

/** A job as the driver's page shows it (GET /driver/jobs): what a driver needs, and the steps they may take now. */
export interface DriverJob {
  reference: string; status: JobStatus; status_label: string; cancelled: boolean; finished: boolean;
  pickup_date: string; pickup_time: string; pickup: string; stops: string[]; dropoff: string | null; hourly: string | null;
  flight: string | null; sign: string | null; passengers: number; luggage: string; extras: string[]; notes: string;
  passenger_name: string; passenger_phone: string;
  /** What to collect in the car (e.g. "£62.00"); null when paid already. */
  collect: string | null;
  vehicle: string; car?: string | null; steps: JobStep[];
  /** When No-show may be tapped (ISO), once Arrived. */
  no_show_from: string | null;
}

/** An API refusal as the machine keeps it: the message, the field it names (mobile, code) and the status. */
export interface CallError { message: string; field?: string; status?: number }

export interface DriverInput { location: Location }

export interface DriverContext {
  location: Location;
  /** Where to go once signed in (an address asked for while signed out, or where the session ended). */
  wanted: Location | null;
  driver: DriverMember | null;
  /** The mobile the code was asked for, and the server's answer (the same for any UK mobile). */
  mobile: string;
  codeSent: string | null;
  jobs: DriverJob[] | null;
  reference: string | null;
  job: DriverJob | null;
  /** The step being confirmed or taken. */
  step: JobStep | null;
  error: CallError | null;
  notice: string | null;
}

export type DriverEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'code.request'; mobile: string }
  | { type: 'code.resend' }
  | { type: 'code.back' }
  | { type: 'code.submit'; code: string }
  | { type: 'jobs.refresh' }
  | { type: 'job.open'; reference: string }
  | { type: 'job.refresh' }
  | { type: 'step.start'; step: JobStep }
  | { type: 'step.confirm' }
  | { type: 'step.cancel' }
  | { type: 'jobs.retry' }
  | { type: 'job.retry' }
  | { type: 'session.signOut' };
