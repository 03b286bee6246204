// The manage page's actor, as its views see it: the app machine's `manage` child (machines/app.ts), spawned by
// ManageArea once this chunk has loaded.
import { createContext, useContext } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ManageSnapshot, manageMachine } from '../../../../machines/manage';

export type ManageRef = ActorRefFrom<typeof manageMachine>;
export const ManageContext = createContext<ManageRef | null>(null);

export function useManageRef(): ManageRef {
  const ref = useContext(ManageContext);
  if (!ref) throw new Error('The manage page is used outside its area');
  return ref;
}

export function useManage<T>(selector: (s: ManageSnapshot) => T): T {
  return useSelector(useManageRef(), selector);
}
