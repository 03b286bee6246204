// Issue 44: the console's invoice forms' rules (src/domain/invoiceDesk.ts), which the Invoices page asks before it
// sends and the server enforces: the day an invoice was paid, and the month invoices are issued for.
import { describe, expect, it } from 'vitest';
import { issueMonth, paidOnProblem } from '../../src/domain/invoiceDesk';

const TODAY = '2030-06-15';

describe('the day an invoice was paid', () => {
  it('is a date, today or before', () => {
    expect(paidOnProblem('2030-06-15', TODAY)).toBeNull();
    expect(paidOnProblem(' 2030-01-31 ', TODAY)).toBeNull();
    expect(paidOnProblem('2030-06-16', TODAY)).toBe('The day it was paid cannot be in the future.');
    for (const typed of ['', '15/06/2030', '2030-02-30', 'yesterday']) expect(paidOnProblem(typed, TODAY), typed).toBe('Enter the day it was paid, as a date.');
  });
});

describe('the month invoices are issued for', () => {
  it('is a month that is over, given as 2030-05 or a day in it', () => {
    expect(issueMonth('2030-05', TODAY)).toEqual({ start: '2030-05-01' });
    expect(issueMonth('2030-05-20', TODAY)).toEqual({ start: '2030-05-01' });
    expect(issueMonth('2029-12', TODAY)).toEqual({ start: '2029-12-01' });
    expect(issueMonth('2030-06', TODAY)).toEqual({ problem: 'A month is invoiced once it is over: choose an earlier month.' });
    expect(issueMonth('2030-07', TODAY)).toEqual({ problem: 'A month is invoiced once it is over: choose an earlier month.' });
    for (const typed of ['', 'May', '2030-13', '2030/05']) expect(issueMonth(typed, TODAY), typed).toEqual({ problem: 'Choose a month, like 2026-10.' });
  });
});
