// A lazily loaded area's actor (the office's console, a passenger's booking page: machines/app.ts `areas`), as its
// chunk sees it: the area hands the app machine its machine once the chunk runs, and its views reach the actor
// through a context of their own.
import { createContext, useContext, useEffect, type Context } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorLogic, AnyActorRef, SnapshotFrom } from 'xstate';
import type { LazyArea } from '../../machines/app';
import { AppActor } from './appActor';

/** The area's actor once the app machine runs it (null until then): asks for it with the area's logic. */
export function useLazyArea<L extends AnyActorLogic>(area: LazyArea, logic: L): ActorRefFrom<L> | null {
  const app = AppActor.useActorRef();
  const ref = AppActor.useSelector((s) => s.context.areas[area]) ?? null;
  useEffect(() => {
    if (!ref) app.send({ type: 'area.loaded', area, logic });
  }, [app, ref, area, logic]);
  return ref as ActorRefFrom<L> | null;
}

/** The context an area's views read its actor from, and the hooks that read it. */
export function areaActorContext<Ref extends AnyActorRef>(what: string): {
  Context: Context<Ref | null>; useRef: () => Ref; useSelect: <T>(selector: (s: SnapshotFrom<Ref>) => T) => T;
} {
  const Context = createContext<Ref | null>(null);
  const useRef = () => {
    const ref = useContext(Context);
    if (!ref) throw new Error(`${what} is used outside its area`);
    return ref;
  };
  const useSelect = <T,>(selector: (s: SnapshotFrom<Ref>) => T): T => useSelector(useRef(), selector as never) as T;
  return { Context, useRef, useSelect };
}
