// The console's actor, as its views see it: the app machine's `operator` child (machines/app.ts), spawned by
// OperatorArea once this chunk has loaded.
import { createContext, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { OperatorScreen } from '../../../domain/screens';
import type { OperatorSnapshot, operatorMachine } from '../../../../machines/operator';

export type OperatorRef = ActorRefFrom<typeof operatorMachine>;
export const OperatorContext = createContext<OperatorRef | null>(null);

export function useOperatorRef(): OperatorRef {
  const ref = useContext(OperatorContext);
  if (!ref) throw new Error('the console is used outside OperatorArea');
  return ref;
}

export function useOperator<T>(selector: (s: OperatorSnapshot) => T): T {
  return useSelector(useOperatorRef(), selector);
}

/** The screen the console's state shows (its `meta.screen`), or null while the session is checked. */
export function operatorScreen(s: OperatorSnapshot): OperatorScreen | null {
  for (const meta of Object.values(s.getMeta()) as { screen?: OperatorScreen }[]) if (meta?.screen) return meta.screen;
  return null;
}
