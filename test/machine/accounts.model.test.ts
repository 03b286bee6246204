// Model-based tests of machines/operatorAccounts.ts, the console's Accounts page (issue 44 §1): paths generated from
// the model (./models/accounts.ts) cover every transition, with the facts after each step.
import { describe, expect, it } from 'vitest';
import { ACCOUNTS_NOTICES } from '../../machines/operatorAccounts';
import { run, testModel } from './modelPaths';
import { ACCOUNT, add, ANSWER, BOOKER, booker, FIELD, FIELD_ID, FORM, ID, INPUTS, load, model, save } from './models/accounts';

testModel(model);

describe('what the accounts page does on its way', () => {
  it("adds an account, then opens its page, adds a field and a booker to it, and changes a field, telling the console each address", async () => {
    const sut = run(model, INPUTS['a new account']);
    await sut.exec(load.done(ANSWER));
    await sut.exec({ type: 'account.save', form: FORM });
    await sut.exec(add.done({ done: 'Harbour Analytics saved.', id: ID }));
    expect(sut.snapshot.context.notice).toBe('Harbour Analytics saved.');
    await sut.exec(load.done(ANSWER));
    await sut.exec({ type: 'field.save', id: null, form: FIELD });
    await sut.exec({ type: 'field.save', id: FIELD_ID, form: FIELD });
    expect(sut.calls.filter((c) => c.service === 'saveField')).toHaveLength(1);
    sut.stop();
    const other = run(model, INPUTS['an account']);
    await other.exec(load.done(ANSWER));
    await other.exec({ type: 'field.save', id: FIELD_ID, form: { ...FIELD, label: 'PO' } });
    await other.exec({ type: 'booker.add', email: BOOKER });
    expect(other.calls.map((c) => [c.service, c.input])).toEqual([
      ['loadAccounts', undefined],
      ['saveField', { accountId: ID, id: FIELD_ID, form: { ...FIELD, label: 'PO' } }],
    ]);
    other.stop();
  });

  it('keeps what was typed through a refusal naming a field, and shows a refusal naming none above the form', async () => {
    const sut = run(model, INPUTS['an account']);
    await sut.exec(load.done(ANSWER));
    const changed = { ...FORM, name: ACCOUNT.name };
    await sut.exec({ type: 'account.save', form: changed });
    await sut.exec(save.fails(Object.assign(new Error('An account with this name is already on the record.'), { status: 422, field: 'name' })));
    expect([sut.snapshot.context.sent, sut.snapshot.context.fieldErrors]).toEqual([{ form: 'account', values: changed }, { name: 'An account with this name is already on the record.' }]);
    await sut.exec({ type: 'booker.remove', email: BOOKER });
    await sut.exec(booker.fails(undefined));
    expect([sut.snapshot.value, sut.snapshot.context.error]).toEqual([{ account: 'idle' }, { message: 'Something went wrong. Please try again.' }]);
    sut.stop();
  });

  it('says when the account asked for is not on the record, and shows the list', async () => {
    const sut = run(model, INPUTS['an account not on their record']);
    await sut.exec(load.done(ANSWER));
    expect([sut.snapshot.value, sut.snapshot.context.id, sut.snapshot.context.error?.message]).toEqual(['list', null, ACCOUNTS_NOTICES.notFound]);
    expect(sut.received).toEqual([{ type: 'page.location', location: { path: '/operator/accounts', search: '' } }]);
    sut.stop();
  });
});
