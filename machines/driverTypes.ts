// The driver's page's machine (./driver.ts): what it is given by the server (src/server/driver/routes.ts: the driver
// signed in, a job, a refusal), what it keeps, and the events its screens send.
import type { DriverJob, JobStep } from '../src/domain/driverJobs';

export type { DriverJob } from '../src/domain/driverJobs';
import type { Location } from '../src/domain/screens';

/** Who is signed in on this device (GET /driver/session). */
export interface DriverMember { name: string; company_name: string }

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
  /**
   * Whether the page shares the car's position for the open job (issue 41 §3): only while it is on the way or at the
   * pickup ('off' otherwise); 'on' once a position was taken, 'denied' or 'unavailable' when the phone will not give one.
   */
  sharing: SharingState;
}

export type SharingState = 'off' | 'starting' | 'on' | 'denied' | 'unavailable';

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
  /** Report an item found in the car (issue 43 §3): opens ./driverFoundItem.ts. */
  | { type: 'found.start' }
  | { type: 'jobs.retry' }
  | { type: 'job.retry' }
  | { type: 'session.signOut' }
  /** From the position sharer (the browser's geolocation): how sharing goes. */
  | { type: 'share.status'; status: Exclude<SharingState, 'off' | 'starting'> | 'stopped' };
