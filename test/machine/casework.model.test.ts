// Model-based tests of machines/operatorCasework.ts, the console's Complaints and Lost property pages (issue 43 §3):
// paths generated from the model (./models/casework.ts) cover every transition, with the facts after each step.
import { describe, expect, it } from 'vitest';
import { CASEWORK_NOTICES } from '../../machines/operatorCasework';
import { run, testModel } from './modelPaths';
import { close, closedEntry, COMPLAINT, create, ID, INPUTS, model, NUMBER, one, openEntry, theirEntry } from './models/casework';

testModel(model);

describe('what the registers page does on its way', () => {
  it('opens a new complaint, then its entry, and closes it once with the outcome, telling the console each address', async () => {
    const sut = run(model, INPUTS['a new complaint']);
    await sut.exec({ type: 'entry.save', form: COMPLAINT });
    await sut.exec(create.done({ id: ID, number: NUMBER }));
    await sut.exec(one.done(openEntry));
    await sut.exec({ type: 'entry.close', outcome: '' });
    await sut.exec({ type: 'entry.close', outcome: ' We apologised. ' });
    await sut.exec({ type: 'entry.close', outcome: 'Again' });
    await sut.exec(close.done({ number: NUMBER, emailed: 'rosa@example.com' }));
    expect(sut.calls).toEqual([
      { service: 'createCaseworkEntry', input: { register: 'complaints', form: COMPLAINT } },
      { service: 'loadCaseworkEntry', input: { register: 'complaints', id: ID } },
      { service: 'closeCaseworkEntry', input: { register: 'complaints', id: ID, outcome: 'We apologised.' } },
      { service: 'loadCaseworkEntry', input: { register: 'complaints', id: ID } },
    ]);
    expect(sut.received.filter((r) => r.type === 'page.location').map((r) => r.location.search)).toEqual([`?id=${ID}`]);
    sut.stop();
  });

  it("takes no change of a closed entry, and leaves closing a company's staff's entry to the office", async () => {
    const sut = run(model, { ...INPUTS['the Complaints link'], location: { path: '/operator/complaints', search: `?id=${ID}` } });
    await sut.exec(one.done(closedEntry));
    expect(sut.snapshot.can({ type: 'entry.save', form: COMPLAINT })).toBe(false);
    expect(sut.snapshot.can({ type: 'entry.close', outcome: 'Again.' })).toBe(false);
    sut.stop();
    const theirs = run(model, { ...INPUTS['the Complaints link'], location: { path: '/operator/complaints', search: `?id=${ID}` } });
    await theirs.exec(one.done(theirEntry));
    expect(theirs.snapshot.can({ type: 'entry.close', outcome: 'We apologised.' })).toBe(false);
    expect(theirs.snapshot.can({ type: 'entry.save', form: COMPLAINT })).toBe(true);
    theirs.stop();
  });

  it('says when there was no e-mail address to send the outcome to', async () => {
    const sut = run(model, INPUTS['an entry of lost property']);
    await sut.exec(one.done(openEntry));
    await sut.exec({ type: 'entry.close', outcome: 'Returned to the owner.' });
    await sut.exec(close.done({ number: NUMBER, emailed: null }));
    expect([sut.snapshot.value, sut.snapshot.context.notice]).toEqual([{ entry: 'loading' }, CASEWORK_NOTICES.closed(null)]);
    expect(sut.snapshot.context.notice).toBe('Closed. There is no e-mail address to send the outcome to.');
    sut.stop();
  });

  it('shows a refusal that came with no reason at all as a message above the entry, and keeps the page', async () => {
    const sut = run(model, INPUTS['an entry of lost property']);
    await sut.exec(one.done(openEntry));
    await sut.exec({ type: 'entry.close', outcome: 'Returned to the owner.' });
    await sut.exec(close.fails(undefined));
    expect(sut.snapshot.status).toBe('active');
    expect([sut.snapshot.value, sut.snapshot.context.error]).toEqual([{ entry: 'ready' }, { message: 'Something went wrong. Please try again.' }]);
    expect(sut.received).toEqual([]);
    sut.stop();
  });
});
