// The forgot-password machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 and 4 'Forgot password' and
// SPEC 8's messages, against the real server: the code is read from the mail it sends, a wrong code is refused by
// it; an expired code and a failed reset are failures the server is asked for.
import type { SnapshotFrom } from 'xstate';
import type { forgotPasswordMachine } from '../../machines/forgotPassword';
import {
  PASSWORD_RESET_DONE, PASSWORDS_DO_NOT_MATCH, RESET_CODE_EXPIRED, RESET_CODE_INVALID, RESET_CODE_SENT, RESET_CODE_VERIFIED,
} from '../../src/domain/messages';
import { model } from '../machine/models/forgotPassword';
import type { ModelEvent, Trail } from '../machine/modelPaths';
import { mailedCode, requestCode, setPassword, stepForm, verifyCode } from './forgotSteps';
import { browserPaths } from './pathRunner';
import { openAsReturningVisitor } from './storage';
import { newAccount, uniqueEmail } from './data';

type S = SnapshotFrom<typeof forgotPasswordMachine>;

const answer = (e: ModelEvent | undefined) => {
  const m = e && /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
  return m ? { ok: m[1] === 'done', message: m[1] === 'done' ? (e as { output: { message: string } }).output.message : ((e as { error: Error }).error.message) } : null;
};


browserPaths({
  model,
  async open(p, inputName) {
    p.data.account = await newAccount(p.server);
    if (inputName === 'no e-mail typed yet') return p.typeUrl('/forgot_password');
    await openAsReturningVisitor(p, '/forgot_password', {
      stored: { registrationMode: 'existing_client', registration: p.data.account.registration },
    });
  },
  acts: {
    'reset.requestCode amelia@example.com': async (p, { next }) => {
      const known = answer(next)?.ok !== false;
      await requestCode(p, known ? p.data.account.email : uniqueEmail('nobody'));
    },
    'reset.verifyCode 123456': async (p, { next }) => {
      const outcome = answer(next)!;
      const code = await mailedCode(p, p.data.account.email);
      let typed = code;
      if (outcome.message === RESET_CODE_INVALID) typed = code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
      if (outcome.message === RESET_CODE_EXPIRED) {
        await p.server.fault({ method: 'POST', path: '/api/v1/auth/verify-code', kind: 'status', status: 422, message: RESET_CODE_EXPIRED });
      }
      await verifyCode(p, typed);
    },
    'reset.back': (p) => p.page.getByRole('button', { name: 'Back', exact: true }).click(),
    'reset.setPassword secret-2 secret-2': async (p, { next }) => {
      if (answer(next)?.ok === false) await p.server.fault({ method: 'POST', path: '/api/v1/auth/reset-password', kind: 'drop' });
      await setPassword(p, 'secret-2');
    },
    'reset.setPassword secret-2 secret-3': (p) => setPassword(p, 'secret-2', 'secret-3'),
  },
  async sees(p, s: S, trail: Trail<S>) {
    const last = trail.at(-1)?.event;
    const told = answer(last);
    if (s.matches('done')) {
      // Back to the personal details as an existing client, with the server's message.
      await p.sees(PASSWORD_RESET_DONE);
      return;
    }
    await p.at('/forgot_password');
    await p.heading('Reset your password');
    const step = { email: 'Step 1: your email', code: 'Step 2: the code', password: 'Step 3: a new password' }[s.value as string];
    if (step) await stepForm(p, step as never).waitFor();
    // SPEC 8: each answer's text, word for word.
    if (told) await p.sees(told.message);
    if (last?.type === 'reset.setPassword' && s.matches('password')) await p.sees(PASSWORDS_DO_NOT_MATCH);
    if (told?.message === RESET_CODE_SENT || told?.message === RESET_CODE_VERIFIED) {
      await p.page.getByRole('status').filter({ hasText: told.message }).waitFor();
    } else if (told && !told.ok) {
      await p.page.getByRole('alert').filter({ hasText: told.message }).waitFor();
    }
  },
});
