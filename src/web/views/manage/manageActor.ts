// The manage page's actor, as its views see it: the app machine's `manage` child (machines/app.ts), spawned by
// ManageArea once this chunk has loaded.
import type { ActorRefFrom } from 'xstate';
import type { manageMachine } from '../../../../machines/manage';
import { areaActorContext } from '../../areaActor';

export type ManageRef = ActorRefFrom<typeof manageMachine>;
const area = areaActorContext<ManageRef>('the manage page');
export const ManageContext = area.Context;
export const useManageRef = area.useRef;
export const useManage = area.useSelect;
