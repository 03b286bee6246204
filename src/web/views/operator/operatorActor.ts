// The console's actor, as its views see it: the app machine's `operator` child (machines/app.ts), spawned by
// OperatorArea once this chunk has loaded.
import { useEffect, useState } from 'react';
import type { ActorRefFrom, AnyStateMachine } from 'xstate';
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

/**
 * An action being saved: a booking's action, a mail's retry, a change of the operator data (the busy states signed in),
 * not the drivers and cars loaded for the assign dialog (issue 41), which save nothing.
 */
const saving = (s: OperatorSnapshot) => s.matches('signedIn') && s.hasTag('busy') && !s.matches({ signedIn: { booking: 'loadingRecords' } });

/**
 * One step of the console, as the sign-in page reads it: when it signs the console out, whether an action was being
 * saved (the server refused it with 401 and did nothing); any other step changes nothing (null).
 */
export function signedOutWhileSaving(before: OperatorSnapshot, after: OperatorSnapshot): boolean | null {
  return after.matches('signedOut') && !before.matches('signedOut') ? saving(before) : null;
}

/**
 * Whether the console was signed out while an action was being saved, so that the sign-in page says nothing was
 * saved. Followed from the console's steps as they happen (the machine keeps where it was, not what it was doing), by
 * a component that stays mounted across the sign-out.
 */
export function useSignedOutWhileSaving(actor: OperatorRef): boolean {
  const [unsaved, setUnsaved] = useState(false);
  useEffect(() => {
    let before = actor.getSnapshot();
    const subscription = actor.subscribe((after) => {
      const step = signedOutWhileSaving(before, after);
      if (step !== null) setUnsaved(step);
      before = after;
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  return unsaved;
}

/**
 * A console page run as the console's child machine (machines/consolePage.ts: the records, complaints, lost property
 * and privacy pages), by the machine it is: undefined while another page is open.
 */
export function usePage<TLogic extends AnyStateMachine>(): ActorRefFrom<TLogic> | undefined {
  return useOperator((s) => s.children.page as ActorRefFrom<TLogic> | undefined);
}
