// Model-based tests of machines/accountInvoices.ts, the corporate area's Invoices (issue 44 §3): paths generated from
// the model (./models/accountInvoices.ts) cover every transition, with the facts checked after each step.
import { describe, expect, it } from 'vitest';
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
