// Model-based tests of machines/driver.ts, a driver's page (issue 41 §2): paths generated from the model
// (./models/driver.ts) cover every transition, with the facts checked after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import {
  CODE, CODE_SENT, FOUND, INPUTS, MOBILE, REF, SIGNED_OUT, accepted, arrived, assigned, daniel, ended, foundItem, getSession, loadJob, loadJobs, model,
  onBoard, requestCode, signIn, takeStep, tooOften, url,
} from './models/driver';

testModel(model);

describe("what the driver's page does on its way", () => {
  it('signs in with the code texted to the mobile, opens the job typed in the address, and comes back to it when the session ends', async () => {
    const sut = run(model, INPUTS['a job typed in the address']);
    await sut.exec(getSession.done(null));
    expect(sut.snapshot.context.location).toEqual({ path: '/driver', search: '' });
    await sut.exec({ type: 'code.request', mobile: ` ${MOBILE} ` });
    expect(sut.calls.at(-1)).toEqual({ service: 'requestCode', input: { mobile: MOBILE } });
    await sut.exec(requestCode.done(CODE_SENT));
    await sut.exec({ type: 'code.submit', code: CODE });
    expect(sut.calls.at(-1)).toEqual({ service: 'signIn', input: { mobile: MOBILE, code: CODE } });
    await sut.exec(signIn.done(daniel));
    expect(sut.snapshot.context.location.path).toBe(`/driver/jobs/${REF}`);
    expect(sut.calls.at(-1)).toEqual({ service: 'loadJob', input: { reference: REF } });
    await sut.exec(loadJob.fails(ended));
    expect([sut.snapshot.context.location.path, sut.snapshot.context.error?.message]).toEqual(['/driver', SIGNED_OUT]);
    await sut.exec({ type: 'code.request', mobile: MOBILE });
    await sut.exec(requestCode.done(CODE_SENT));
    await sut.exec({ type: 'code.submit', code: CODE });
    await sut.exec(signIn.done(daniel));
    expect(sut.snapshot.context.location.path).toBe(`/driver/jobs/${REF}`);
    sut.stop();
  });

  it('keeps the code screen when a new code is refused, and the list when the driver goes back to it', async () => {
    const sut = run(model, INPUTS['a visit to /driver']);
    await sut.exec(getSession.done(null));
    await sut.exec({ type: 'code.request', mobile: MOBILE });
    await sut.exec(requestCode.done(CODE_SENT));
    await sut.exec({ type: 'code.resend' });
    await sut.exec(requestCode.fails(tooOften));
    expect([sut.snapshot.value, sut.snapshot.context.error?.message]).toEqual([{ signedOut: 'code' }, tooOften.message]);
    sut.stop();
  });

  it('takes only the steps the server offers, and confirms a decline before sending it', async () => {
    const sut = run(model, INPUTS['a visit to /driver']);
    await sut.exec(getSession.done(daniel));
    await sut.exec(loadJobs.done([assigned]));
    await sut.exec({ type: 'job.open', reference: REF });
    await sut.exec(loadJob.done(assigned));
    await sut.exec({ type: 'step.start', step: 'on_way' });
    expect(sut.snapshot.value).toEqual({ signedIn: { job: 'ready' } });
    await sut.exec({ type: 'step.start', step: 'declined' });
    expect(sut.snapshot.value).toEqual({ signedIn: { job: 'confirming' } });
    expect(sut.calls.map((c) => c.service)).not.toContain('takeStep');
    await sut.exec({ type: 'step.confirm' });
    expect(sut.calls.at(-1)).toEqual({ service: 'takeStep', input: { reference: REF, step: 'declined' } });
    await sut.exec(takeStep.done(null));
    expect(sut.snapshot.context.location.path).toBe('/driver');
    await sut.exec(url(`/driver/jobs/${REF}`));
    await sut.exec(loadJob.done(arrived));
    // At the pickup with free waiting left: no No-show button until the server sends it.
    await sut.exec({ type: 'step.start', step: 'no_show' });
    expect(sut.snapshot.value).toEqual({ signedIn: { job: 'ready' } });
    await sut.exec({ type: 'step.start', step: 'on_board' });
    expect(sut.calls.at(-1)).toEqual({ service: 'takeStep', input: { reference: REF, step: 'on_board' } });
    await sut.exec(takeStep.done({ ...accepted, status: 'on_board', steps: ['completed'] }));
    expect(sut.snapshot.context.notice).toBe('Saved: Passenger on board.');
    sut.stop();
  });

  it('opens the found item form only on a job whose passenger was on board, thanks the driver, and signs out when the session ended', async () => {
    const sut = run(model, INPUTS['a job typed in the address']);
    await sut.exec(getSession.done(daniel));
    await sut.exec(loadJob.done(accepted));
    await sut.exec({ type: 'found.start' });
    expect(sut.snapshot.value).toEqual({ signedIn: { job: 'ready' } });
    await sut.exec({ type: 'job.refresh' });
    await sut.exec(loadJob.done(onBoard));
    await sut.exec({ type: 'found.start' });
    expect(sut.calls.at(-1)).toEqual({ service: 'foundItem', input: { reference: REF } });
    await sut.exec(foundItem.done({ kind: 'reported', number: FOUND }));
    expect([sut.snapshot.value, sut.snapshot.context.notice]).toEqual([{ signedIn: { job: 'ready' } }, `Thank you. The office has the item on record as ${FOUND}.`]);
    await sut.exec({ type: 'found.start' });
    await sut.exec(foundItem.done({ kind: 'signedOut' }));
    expect([sut.snapshot.value, sut.snapshot.context.error?.message, sut.snapshot.context.wanted?.path]).toEqual([{ signedOut: 'mobile' }, SIGNED_OUT, `/driver/jobs/${REF}`]);
    sut.stop();
  });
});
