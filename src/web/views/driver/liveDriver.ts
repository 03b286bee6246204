// The driver page's machine with the browser's services: its calls (./driverApi.ts), and the sharer of the car's
// position (the browser's geolocation, sent every POSITION_EVERY_SECONDS while the machine says the job shares it).
import { fromCallback, fromPromise } from 'xstate';
import { driverMachine } from '../../../../machines/driver';
import { driverFoundItemMachine } from '../../../../machines/driverFoundItem';
import type { JobStep } from '../../../domain/driverJobs';
import { POSITION_EVERY_SECONDS } from '../../../domain/tracking';
import type { DriverEvent } from '../../../../machines/driverTypes';
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
    foundItem: driverFoundItemMachine.provide({
      actors: { reportFound: fromPromise(({ input }: { input: { reference: string; description: string; found_place: string } }) => calls.reportFound(input)) },
    }),
    sharePosition: fromCallback<{ type: 'share.update'; on: boolean }, { reference: string }>(({ sendBack, receive, input }) => {
      const tell = (status: Extract<DriverEvent, { type: 'share.status' }>['status']) => sendBack({ type: 'share.status', status });
      let watch: number | null = null;
      let timer: ReturnType<typeof setInterval> | null = null;
      let latest: GeolocationPosition | null = null;
      let sent: GeolocationPosition | null = null;
      const stop = () => {
        if (watch !== null) navigator.geolocation.clearWatch(watch);
        if (timer !== null) clearInterval(timer);
        watch = null; timer = null; latest = null; sent = null;
      };
      const send = async () => {
        const p = latest;
        if (!p || p === sent) return;
        sent = p;
        try {
          await calls.sendPosition(input.reference, { lat: p.coords.latitude, lng: p.coords.longitude, accuracy: p.coords.accuracy });
          if (watch !== null) tell('on');
        } catch (err) {
          // The job moved on meanwhile (the office, another device): nothing more is sent. A position refused as a
          // glitch (outside the UK, an impossible jump) is dropped; the next one may do.
          if ((err as { status?: number }).status === 409 || (err as { status?: number }).status === 404) { stop(); tell('stopped'); }
        }
      };
      const start = () => {
        if (watch !== null) return;
        if (!('geolocation' in navigator)) { tell('unavailable'); return; }
        watch = navigator.geolocation.watchPosition(
          (p) => { const first = latest === null && sent === null; latest = p; if (first) void send(); },
          (e) => tell(e.code === e.PERMISSION_DENIED ? 'denied' : 'unavailable'),
          { enableHighAccuracy: true, maximumAge: 5_000, timeout: 30_000 },
        );
        timer = setInterval(() => { void send(); }, POSITION_EVERY_SECONDS * 1000);
      };
      receive((e) => (e.on ? start() : stop()));
      return stop;
    }),
  },
});
