// The model of machines/forgotPassword.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../forgotPassword.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import { forgotPasswordMachine, type ForgotPasswordEvent, type ForgotPasswordInput } from '../../../machines/forgotPassword';
import type { SnapshotFrom } from 'xstate';
import { PASSWORD_RESET_DONE, PASSWORDS_DO_NOT_MATCH, RESET_CODE_EXPIRED, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED, RESET_EMAIL_NOT_FOUND, RESET_FAILED } from '../../../src/domain/messages';
import { answers, type Model, type ModelEvent, type Trail } from '../modelPaths';

export type Snapshot = SnapshotFrom<typeof forgotPasswordMachine>;
export type Answer = { type: `xstate.${string}`; output?: { message: string }; error?: Error };

export const requestCode = answers(forgotPasswordMachine, 'requestResetCode');
export const verifyCode = answers(forgotPasswordMachine, 'verifyResetCode');
export const resetPassword = answers(forgotPasswordMachine, 'resetPassword');
export const SERVICES = ['requestResetCode', 'verifyResetCode', 'resetPassword'];

export const EVENTS: ModelEvent<ForgotPasswordEvent>[] = [
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

export const INPUTS: Record<string, ForgotPasswordInput> = {
  'the e-mail the details step knew': { email: 'amelia@example.com' },
  'no e-mail typed yet': { email: '' },
};

export type Service = typeof requestCode;
/** 'done' or 'fails' when the event is that service's answer. */
export const outcome = (e: ModelEvent | undefined, service: Service) =>
  (e?.type === service.done().type ? 'done' : e?.type === service.fails(null).type ? 'fails' : null);
export const lastOutcome = (trail: Trail<Snapshot>, service: Service) =>
  trail.map((step) => outcome(step.event, service)).filter((o) => o !== null).at(-1) ?? null;

/** SPEC 4 'Forgot password' and SPEC 8: what each step shows, given the steps that led to it. */
export function spec(s: Snapshot, trail: Trail<Snapshot>, input: ForgotPasswordInput) {
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

/** SPEC 4 'Forgot password': each step's form, Back on step 2, and the new password however it is typed. */
export function offers(s: SnapshotFrom<typeof forgotPasswordMachine>): ModelEvent<ForgotPasswordEvent>[] {
  if (s.matches('email')) return [{ type: 'reset.requestCode', email: 'amelia@example.com' }];
  if (s.matches('code')) return [{ type: 'reset.verifyCode', code: '123456' }, { type: 'reset.back' }];
  if (s.matches('password')) return [{ type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-2' }, { type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-3' }];
  return [];
}

export const model: Model<typeof forgotPasswordMachine> = {
  name: 'forgot-password machine',
  machine: forgotPasswordMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.email, s.context.code]),
  facts: spec,
  offers,
  deciding: ['requestResetCode', 'verifyResetCode', 'resetPassword'],
  factsTitle: "SPEC 4's forgot-password steps",
  services: SERVICES,
  depth: () => Infinity,
};
