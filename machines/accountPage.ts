// What the corporate area's pages run as child machines share (issue 44: ./accountJourneys.ts, ./accountInvoices.ts).
// The account (./account.ts) starts a page with the session (`AccountPageInput`); a call of the page answered 401 means
// the session has ended, and the page ends with that as its output (`AccountPageOutput`), which signs the account out
// keeping the page to come back to after signing in.
import { errorText } from './shared';
import type { AccountPageOutput } from './account';

/** A call's refusal as a page keeps it: the message, the field of the form it is about, and the status. */
export interface PageError { message: string; field?: string; status?: number }

export function pageError(e: unknown): PageError {
  const { field, status } = (typeof e === 'object' && e ? e : {}) as Partial<PageError>;
  return { message: errorText(e), ...(typeof field === 'string' && field ? { field } : {}), ...(typeof status === 'number' ? { status } : {}) };
}

/** The call was answered 401: the session has ended. */
export const isSessionEnd = (e: unknown): boolean => (e as Partial<PageError> | null)?.status === 401;

/** A page's output when it ends. */
export const SESSION_ENDED_OUTPUT: AccountPageOutput = { sessionEnded: true };
