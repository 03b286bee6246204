// Small pieces every machine uses.
import { fromPromise, type AnyActorRef } from 'xstate';

/** A service the machine names and the app provides (`machine.provide({ actors })`); tests provide their own. */
export const provided = <TOutput, TInput = void>(name: string) =>
  fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} is provided by the app`);
  });

/** A call's answer, as the params of the named guard or action that reads it (`params: output`). */
export const output = <T>({ event }: { event: { output: T } }) => event.output;
/** A call's error, as the params `{ error }` of the named guard or action that reads it (`params: failure`). */
export const failure = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong. Please try again.';

/**
 * An actor is busy while it, or a child it runs, is in a state tagged 'busy' (a call whose answer decides where
 * the visitor goes): the app then ignores location changes until the answer arrives.
 */
export function isBusy(ref: AnyActorRef | undefined | null): boolean {
  if (!ref) return false;
  const s = ref.getSnapshot() as { status?: string; hasTag?: (t: string) => boolean; children?: Record<string, AnyActorRef | undefined> };
  if (s.status !== 'active') return false;
  if (s.hasTag?.('busy')) return true;
  return Object.values(s.children ?? {}).some((c) => isBusy(c));
}
