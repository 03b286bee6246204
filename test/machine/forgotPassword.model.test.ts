// Model-based tests of machines/forgotPassword.ts (./modelPaths.ts): SPEC 2 and 4 'Forgot password' and SPEC 8's
// messages. The machine runs as the child of a small recording parent, as the booking wizard invokes it: its
// output (the e-mail and the server's message) is what the parent receives when the new password is set.
import { describe, expect, it } from 'vitest';
import { forgotPasswordMachine, type ForgotPasswordEvent, type ForgotPasswordInput } from '../../machines/forgotPassword';
import type { SnapshotFrom } from 'xstate';
import {
  PASSWORD_RESET_DONE, PASSWORDS_DO_NOT_MATCH, RESET_CODE_EXPIRED, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED,
  RESET_EMAIL_NOT_FOUND, RESET_FAILED,
} from '../../src/domain/messages';
import { answers, run, testModel, type Model, type ModelEvent, type Trail } from './modelPaths';

type Snapshot = SnapshotFrom<typeof forgotPasswordMachine>;
type Answer = { type: `xstate.${string}`; output?: { message: string }; error?: Error };

const requestCode = answers(forgotPasswordMachine, 'requestResetCode');
const verifyCode = answers(forgotPasswordMachine, 'verifyResetCode');
const resetPassword = answers(forgotPasswordMachine, 'resetPassword');
const SERVICES = ['requestResetCode', 'verifyResetCode', 'resetPassword'];

const EVENTS: ModelEvent<ForgotPasswordEvent>[] = [
  { type: 'reset.requestCode', email: 'amelia@example.com' },
  { type: 'reset.verifyCode', code: '123456' },
  { type: 'reset.back' },
  { type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-2' },
  { type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-3' },
  requestCode.done({ success: true, message: RESET_CODE_SENT }),
  requestCode.fails(new Error(RESET_EMAIL_NOT_FOUND)),
  verifyCode.done({ success: true, message: RESET_CODE_VERIFIED }),
  verifyCode.fails(new Error(RESET_CODE_INVALID)),
  verifyCode.fails(new Error(RESET_CODE_EXPIRED)),
  resetPassword.done({ success: true, message: PASSWORD_RESET_DONE }),
  resetPassword.fails(new Error(RESET_FAILED)),
];

const INPUTS: Record<string, ForgotPasswordInput> = {
  'the e-mail the details step knew': { email: 'amelia@example.com' },
  'no e-mail typed yet': { email: '' },
};

type Service = typeof requestCode;
/** 'done' or 'fails' when the event is that service's answer. */
const outcome = (e: ModelEvent | undefined, service: Service) =>
  (e?.type === service.done().type ? 'done' : e?.type === service.fails(null).type ? 'fails' : null);
const lastOutcome = (trail: Trail<Snapshot>, service: Service) =>
  trail.map((step) => outcome(step.event, service)).filter((o) => o !== null).at(-1) ?? null;

/** SPEC 4 'Forgot password' and SPEC 8: what each step shows, given the steps that led to it. */
function spec(s: Snapshot, trail: Trail<Snapshot>, input: ForgotPasswordInput) {
  const last = trail.at(-1);
  const e = last?.event as ForgotPasswordEvent | Answer | undefined;
  // Step 1 (e-mail) goes to step 2 only once the reset code is sent; step 2 to step 3 only once the code is accepted.
  if (s.matches('code') || s.matches('verifying')) expect(lastOutcome(trail, requestCode)).toBe('done');
  if (s.matches('password') || s.matches('resetting') || s.matches('done')) expect(lastOutcome(trail, verifyCode)).toBe('done');
  // SPEC 8's successes and failures, word for word; a failure keeps the visitor on the step that asked.
  if (e && 'output' in e && s.status === 'active') expect(s.context.notice).toBe(e.output!.message);
  if (e && 'error' in e) expect(s.context.error).toBe(e.error!.message);
  if (outcome(e, requestCode) === 'fails') expect(s.value).toBe('email');
  if (outcome(e, verifyCode) === 'fails') expect(s.value).toBe('code');
  if (outcome(e, resetPassword) === 'fails') expect(s.value).toBe('password');
  if (e?.type === 'reset.setPassword' && e.password !== e.confirm) {
    expect([s.value, s.context.error]).toEqual(['password', PASSWORDS_DO_NOT_MATCH]);
  }
  // Back on step 2 returns to step 1.
  if (e?.type === 'reset.back') expect(s.value).toBe('email');
  // A new request clears the last message.
  if (e?.type === 'reset.requestCode' || e?.type === 'reset.verifyCode') expect([s.context.error, s.context.notice]).toEqual([null, null]);
  // Step 3's success: the parent (the wizard) receives the e-mail the code went to and the server's message.
  const asked = trail.map((step) => step.event).filter((x) => x.type === 'reset.requestCode').at(-1) as { email: string } | undefined;
  if (s.matches('done')) {
    expect(last!.effects.toParent).toEqual([
      {
        type: 'xstate.done.actor.forgotPassword', actorId: 'forgotPassword',
        output: { email: asked?.email ?? input.email, message: PASSWORD_RESET_DONE },
      },
    ]);
  } else if (last) {
    expect(last.effects.toParent).toEqual([]);
  }
}

const model: Model<typeof forgotPasswordMachine> = {
  name: 'forgot-password machine',
  machine: forgotPasswordMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.email, s.context.code]),
  facts: spec,
  factsTitle: "SPEC 4's forgot-password steps",
  services: SERVICES,
  depth: () => Infinity,
};

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
