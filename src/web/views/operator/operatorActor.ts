// The console's actor, as its views see it: the app machine's `operator` child (machines/app.ts), spawned by
// OperatorArea once this chunk has loaded.
import type { ActorRefFrom } from 'xstate';
import type { OperatorScreen } from '../../../domain/screens';
import type { OperatorSnapshot, operatorMachine } from '../../../../machines/operator';
import { areaActorContext } from '../../areaActor';

export type OperatorRef = ActorRefFrom<typeof operatorMachine>;
const area = areaActorContext<OperatorRef>('the console');
export const OperatorContext = area.Context;
export const useOperatorRef = area.useRef;
export const useOperator = area.useSelect;

/** The screen the console's state shows (its `meta.screen`), or null while the session is checked. */
export function operatorScreen(s: OperatorSnapshot): OperatorScreen | null {
  for (const meta of Object.values(s.getMeta()) as { screen?: OperatorScreen }[]) if (meta?.screen) return meta.screen;
  return null;
}
