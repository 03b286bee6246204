// The driver's calls (src/server/driver/routes.ts), in the driver page's own chunk. The session is an HttpOnly cookie
// the browser sends by itself; a refusal becomes an error with the server's message, the field it names and the status
// (401: the session ended; 404: not this driver's job; 409: the step is not allowed now), which the machine reads.
import { api, refusalOf } from '../../api';
import type { DriverJob, DriverMember } from '../../../../machines/driver';
import type { JobStep } from '../../../domain/driverJobs';

async function call<T>(path: string, options: { method?: string; body?: object } = {}): Promise<T> {
  try {
    return await api<T>(`/driver/${path}`, { credentials: 'same-origin', ...options } as never) as T;
  } catch (err) {
    throw refusalOf(err);
  }
}

const at = (reference: string) => encodeURIComponent(reference);

export const getSession = async () => (await call<{ driver: DriverMember | null }>('session')).driver;
export const requestCode = async (mobile: string) => (await call<{ message: string }>('code', { method: 'POST', body: { mobile } })).message;
export const signIn = async (body: { mobile: string; code: string }) => (await call<{ driver: DriverMember }>('session', { method: 'POST', body })).driver;
export const signOut = async () => { await call('session', { method: 'DELETE' }); };
export const loadJobs = async () => (await call<{ jobs: DriverJob[] }>('jobs')).jobs;
export const loadJob = async (reference: string) => (await call<{ job: DriverJob }>(`jobs/${at(reference)}`)).job;
export const takeStep = async (reference: string, step: JobStep) =>
  (await call<{ job: DriverJob | null }>(`jobs/${at(reference)}/status`, { method: 'POST', body: { status: step } })).job;
/** The car's place while the job is on the way (issue 41 §3): degrees and metres, as the browser gives them. */
export const sendPosition = async (reference: string, body: { lat: number; lng: number; accuracy: number }) => {
  await call(`jobs/${at(reference)}/position`, { method: 'POST', body });
};
/** An item found in the car on this job (issue 43 §3): the lost property entry's number. */
export const reportFound = async ({ reference, ...body }: { reference: string; description: string; found_place: string }) =>
  (await call<{ entry: { number: string } }>(`jobs/${at(reference)}/found`, { method: 'POST', body })).entry;
