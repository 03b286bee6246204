// Model-based tests of machines/forgotPassword.ts (./modelPaths.ts): SPEC 2 and 4 'Forgot password' and SPEC 8's
// messages. The machine runs as the child of a small recording parent, as the booking wizard invokes it: its
// output (the e-mail and the server's message) is what the parent receives when the new password is set.
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_DONE, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED, RESET_EMAIL_NOT_FOUND } from '../../src/domain/messages';
import { run, testModel } from './modelPaths';
import { requestCode, verifyCode, resetPassword, INPUTS, model } from './models/forgotPassword';

testModel(model);

describe('what the machine does on its way', () => {
  it('sends each call what the server needs: the e-mail, then the code, then both with the new password (SPEC 7)', async () => {
    const sut = run(model, INPUTS['no e-mail typed yet']);
    await sut.exec({ type: 'reset.requestCode', email: 'mia@example.com' });
    await sut.exec(requestCode.done({ success: true, message: RESET_CODE_SENT }));
    await sut.exec({ type: 'reset.verifyCode', code: '000000' });
    await sut.exec(verifyCode.fails(new Error(RESET_CODE_INVALID)));
    await sut.exec({ type: 'reset.verifyCode', code: '654321' });
    await sut.exec(verifyCode.done({ success: true, message: RESET_CODE_VERIFIED }));
    await sut.exec({ type: 'reset.setPassword', password: 'new-secret', confirm: 'new-secret' });
    expect(sut.calls).toEqual([
      { service: 'requestResetCode', input: { email: 'mia@example.com' } },
      { service: 'verifyResetCode', input: { email: 'mia@example.com', code: '000000' } },
      { service: 'verifyResetCode', input: { email: 'mia@example.com', code: '654321' } },
      { service: 'resetPassword', input: { email: 'mia@example.com', code: '654321', password: 'new-secret' } },
    ]);
    await sut.exec(resetPassword.done({ success: true, message: PASSWORD_RESET_DONE }));
    expect(sut.snapshot.status).toBe('done');
    expect(sut.received).toEqual([
      { type: 'xstate.done.actor.forgotPassword', actorId: 'forgotPassword', output: { email: 'mia@example.com', message: PASSWORD_RESET_DONE } },
    ]);
    // The code is not kept once it has been used.
    expect(sut.snapshot.context.code).toBe('');
    sut.stop();
  });

  it('is busy while a call decides the next step, so the address stays put', async () => {
    const sut = run(model, INPUTS['the e-mail the details step knew']);
    expect(sut.snapshot.hasTag('busy')).toBe(false);
    await sut.exec({ type: 'reset.requestCode', email: 'amelia@example.com' });
    expect(sut.snapshot.hasTag('busy')).toBe(true);
    await sut.exec(requestCode.fails(new Error(RESET_EMAIL_NOT_FOUND)));
    expect([sut.snapshot.value, sut.snapshot.hasTag('busy'), sut.snapshot.context.error]).toEqual(['email', false, RESET_EMAIL_NOT_FOUND]);
    sut.stop();
  });
});
