// The console's account invoices (issue 44 §3, decision 62): the rules of its two forms, "Mark paid" with the day it
// was paid and "Issue invoices now" for a month. The console's Invoices page asks these before it sends anything; the
// server (src/server/operator/accountRoutes.ts) refuses the same, on the same field, in the same words.
import { monthStart } from './accounts';
import { isCalendarDate } from './ukTime';

/** What is wrong with the day an invoice was paid (a UK date, 2026-11-03), on `today`; null when it may be sent. */
export function paidOnProblem(paidOn: string, today: string): string | null {
  const day = paidOn.trim();
  if (!isCalendarDate(day)) return 'Enter the day it was paid, as a date.';
  if (day > today) return 'The day it was paid cannot be in the future.';
  return null;
}

/**
 * The first day of the month the office asks to invoice (2026-10, or a day in it), or what is wrong with it on
 * `today`: a month is invoiced once it is over.
 */
export function issueMonth(typed: string, today: string): { start: string } | { problem: string } {
  const start = monthStart(typed);
  if (!start) return { problem: 'Choose a month, like 2026-10.' };
  if (start >= `${today.slice(0, 7)}-01`) return { problem: 'A month is invoiced once it is over: choose an earlier month.' };
  return { start };
}
