// The driver page's actor, as its views see it: the app machine's `driver` child (machines/app.ts), spawned by
// DriverArea once this chunk has loaded.
import type { ActorRefFrom } from 'xstate';
import type { driverMachine } from '../../../../machines/driver';
import { areaActorContext } from '../../areaActor';

export type DriverRef = ActorRefFrom<typeof driverMachine>;
const area = areaActorContext<DriverRef>("the driver's page");
export const DriverContext = area.Context;
export const useDriverRef = area.useRef;
export const useDriver = area.useSelect;
