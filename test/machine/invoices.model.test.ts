// Model-based tests of machines/operatorInvoices.ts, the console's Invoices page (issue 44 §3): paths generated from
// the model (./models/invoices.ts) cover every transition, with the issue's facts after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { ACCOUNT, INPUTS, issue, list, mark, model, OFFICE, PAID, PAST, pdf, THEIRS, UNPAID } from './models/invoices';

testModel(model);

describe('what the invoices page does on its way', () => {
  it('marks an invoice paid with the day, then unpaid, loading the invoices again after each with the server\'s words', async () => {
    const sut = run(model, INPUTS["an account's invoices"]);
    await sut.exec(list.done(OFFICE));
    await sut.exec({ type: 'invoices.pay', number: UNPAID.number });
    await sut.exec({ type: 'invoices.paid', paid_on: PAST });
    await sut.exec(mark.done({ done: `INV-000012 marked paid on ${PAST}.` }));
    expect([sut.snapshot.value, sut.snapshot.context.notice, sut.snapshot.context.paying]).toEqual(['loading', `INV-000012 marked paid on ${PAST}.`, null]);
    await sut.exec(list.done(OFFICE));
    await sut.exec({ type: 'invoices.unpay', number: PAID.number });
    expect(sut.calls.map((c) => [c.service, c.input])).toEqual([
      ['loadInvoices', { account: ACCOUNT }],
      ['markInvoicePaid', { number: UNPAID.number, paid_on: PAST }],
      ['loadInvoices', { account: ACCOUNT }],
      ['markInvoicePaid', { number: PAID.number, paid_on: null }],
    ]);
    sut.stop();
  });

  it("issues a month's invoices for one account, downloads a PDF, and offers a company's staff neither", async () => {
    const sut = run(model, INPUTS['the Invoices link']);
    await sut.exec(list.done(OFFICE));
    await sut.exec({ type: 'invoices.issue', month: ' 2020-05 ', account: ACCOUNT });
    await sut.exec(issue.done({ done: '1 invoice(s) issued and e-mailed.', issued: [14] }));
    await sut.exec(list.done(OFFICE));
    await sut.exec({ type: 'invoices.download', document: 'CN-000003' });
    await sut.exec(pdf.done());
    expect(sut.snapshot.context.notice).toBe('CN-000003 has been downloaded.');
    expect(sut.calls.filter((c) => c.service !== 'loadInvoices').map((c) => c.input)).toEqual([{ month: '2020-05', account: ACCOUNT }, { document: 'CN-000003' }]);
    sut.stop();
    const theirs = run(model, INPUTS["a company's staff on the Invoices link"]);
    await theirs.exec(list.done(THEIRS));
    await theirs.exec({ type: 'invoices.issue', month: '2020-05', account: null });
    await theirs.exec({ type: 'invoices.pay', number: UNPAID.number });
    expect([theirs.snapshot.value, theirs.calls.length]).toEqual(['ready', 1]);
    theirs.stop();
  });
});
