// A page of the office's console run as a child machine of the console's (./operator.ts), as the card payment is run by
// the wizard (issue 43: the Records, Complaints, Lost property and privacy pages; ./operatorRecords.ts is the first).
// The console invokes the page's machine while its screen is open, with the address and the member of staff signed in
// (`ConsolePageInput`); an address of the same page (another range, another entry) starts it again with that input.
// The page tells the console two things (`ToConsole`): the address it now shows (`pageAt`), and that a call was
// answered 401 (`SESSION_ENDED_HERE`), which signs the console out keeping where it was to come back after sign-in.
import type { Location } from '../src/domain/screens';
import { errorText, failure } from './shared';
import type { CallError, StaffMember, ToConsole } from './operatorTypes';

export interface ConsolePageInput { location: Location; staff: StaffMember }

export type { ToConsole } from './operatorTypes';

/** The page's address, for the console to show in the address bar (a page's action: `sendParent(({ context }) => pageAt(...))`). */
export const pageAt = (location: Location): ToConsole => ({ type: 'page.location', location });

/** A call's refusal as a page keeps it: the message, the field it names, and the status. */
export function asCallError(e: unknown): CallError {
  const { field, status } = (typeof e === 'object' && e ? e : {}) as Partial<CallError>;
  return { message: errorText(e), ...(field ? { field } : {}), ...(status ? { status } : {}) };
}

export const isSessionEnd = (e: unknown) => (e as CallError)?.status === 401;

/**
 * What every page's setup has, for SESSION_ENDED_HERE: the guard `sessionEnded: (_, { error }: { error: unknown }) =>
 * isSessionEnd(error)` and the action `tellSessionEnded: sendParent(SESSION_ENDED_EVENT)`.
 */
export const SESSION_ENDED_EVENT: ToConsole = { type: 'page.sessionEnded' };

/**
 * The first of a call's onError transitions on a page: answered 401, the session ended, and the console is told (it
 * leaves the page, so nothing else of the page's happens).
 */
export const SESSION_ENDED_HERE = { guard: { type: 'sessionEnded', params: failure }, actions: 'tellSessionEnded' } as const;
