// Model-based tests of machines/accountInvoices.ts, the corporate area's Invoices (issue 44 §3): paths generated from
// the model (./models/accountInvoices.ts) cover every transition, with the facts checked after each step.
import { describe, expect, it } from 'vitest';
import { isSessionEnd, pageError } from '../../machines/accountPage';
import { run, testModel } from './modelPaths';
import { session } from './fixtures';
import { downloadDocument, fetchInvoices, INVOICE, invoiced, model, NOTE, noAccount } from './models/accountInvoices';

testModel(model);

describe('what the invoices page does on its way', () => {
  it('downloads the invoice and its note, one at a time, and nothing of a passenger of no account', async () => {
    const sut = run(model, { session });
    await sut.exec(fetchInvoices.done(invoiced));
    await sut.exec({ type: 'invoices.download', document: INVOICE });
    await sut.exec({ type: 'invoices.download', document: NOTE });
    await sut.exec(downloadDocument.done());
    expect(sut.snapshot.context.notice).toBe('INV-000012 has been downloaded.');
    await sut.exec({ type: 'invoices.download', document: NOTE });
    await sut.exec(downloadDocument.done());
    expect(sut.calls.map((c) => c.input)).toEqual([{ session }, { session, document: INVOICE }, { session, document: NOTE }]);
    sut.stop();
    const alone = run(model, { session });
    await alone.exec(fetchInvoices.done(noAccount));
    await alone.exec({ type: 'invoices.download', document: INVOICE });
    expect([alone.snapshot.value, alone.calls.length]).toEqual(['ready', 1]);
    alone.stop();
  });
});

describe("what a corporate page keeps of a call's refusal (machines/accountPage.ts)", () => {
  it('keeps the message, a field named in words and a numeric status, nothing else', () => {
    const refused = Object.assign(new Error('Enter the first day as a date.'), { field: 'from', status: 422 });
    expect(pageError(refused)).toEqual({ message: 'Enter the first day as a date.', field: 'from', status: 422 });
    expect(pageError(Object.assign(new Error('Down'), { field: '', status: '500' }))).toEqual({ message: 'Down' });
    expect(pageError(Object.assign(new Error('Odd'), { field: 7 }))).toEqual({ message: 'Odd' });
    expect(pageError('Plain words')).toEqual({ message: 'Plain words' });
  });
  it('reads the end of a session only from a 401, whatever else was thrown', () => {
    expect(isSessionEnd(Object.assign(new Error('Sign in again.'), { status: 401 }))).toBe(true);
    expect(isSessionEnd(Object.assign(new Error('Refused'), { status: 403 }))).toBe(false);
    expect(isSessionEnd(null)).toBe(false);
    expect(isSessionEnd(undefined)).toBe(false);
  });
});
