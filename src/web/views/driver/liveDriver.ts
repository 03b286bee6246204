// The driver page's machine with the browser's services: its calls (./driverApi.ts).
import { fromPromise } from 'xstate';
import { driverMachine } from '../../../../machines/driver';
import type { JobStep } from '../../../domain/driverJobs';
import * as calls from './driverApi';

export const liveDriver = driverMachine.provide({
  actors: {
    getSession: fromPromise(() => calls.getSession()),
    requestCode: fromPromise(({ input }: { input: { mobile: string } }) => calls.requestCode(input.mobile)),
    signIn: fromPromise(({ input }: { input: { mobile: string; code: string } }) => calls.signIn(input)),
    signOut: fromPromise(() => calls.signOut()),
    loadJobs: fromPromise(() => calls.loadJobs()),
    loadJob: fromPromise(({ input }: { input: { reference: string } }) => calls.loadJob(input.reference)),
    takeStep: fromPromise(({ input }: { input: { reference: string; step: JobStep } }) => calls.takeStep(input.reference, input.step)),
  },
});
