// The forgot-password machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 and 4 'Forgot password' and
// SPEC 8's messages, against the real server: the code is read from the mail it sends, a wrong code is refused by
// it; an expired code and a failed reset are failures the server is asked for.
import { PASSWORDS_DO_NOT_MATCH, RESET_CODE_EXPIRED, RESET_CODE_INVALID } from '../../src/domain/messages';
import * as forgot from '../machine/models/forgotPassword';
import type { ModelEvent } from '../machine/modelPaths';
import { mailedCode, requestCode, setPassword, verifyCode } from './forgotSteps';
import { browserPaths } from './pathRunner';
import { isWaiting, serviceOf, type Seen } from './screens';
import { openAsReturningVisitor } from './storage';
import { newAccount, uniqueEmail } from './data';

const { model } = forgot;
const SERVICES = { requestResetCode: forgot.requestCode, verifyResetCode: forgot.verifyCode, resetPassword: forgot.resetPassword };
/** A step of the reset page: its own form holds the inputs. */
const FORMS = { resetEmail: 'Step 1: your email', resetCode: 'Step 2: the code', resetPassword: 'Step 3: a new password' } as const;
const step = (screen: keyof typeof FORMS, more: Partial<Seen> = {}): Seen => ({ screen, form: FORMS[screen], ...more });

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
  oracle: {
    calls: {
      requestResetCode: { method: 'POST', path: '/api/v1/auth/forgot-password' },
      verifyResetCode: { method: 'POST', path: '/api/v1/auth/verify-code' },
      resetPassword: { method: 'POST', path: '/api/v1/auth/reset-password' },
    },
    opens: () => step('resetEmail'),
    // SPEC 4 'Forgot password' and SPEC 8: each step's form, the server's words in a status (a success) or an alert
    // (a refusal, which keeps the visitor on the step that asked); a new password set returns to the booking.
    after(before, e) {
      const service = serviceOf(e, SERVICES);
      if (service) {
        if (!isWaiting(before) || before.waiting !== service) return undefined;
        const told = answer(e)!;
        const asked = ({ requestResetCode: 'resetEmail', verifyResetCode: 'resetCode', resetPassword: 'resetPassword' } as const)[service as keyof typeof SERVICES];
        if (!told.ok) return step(asked, { alerts: [told.message] });
        if (service === 'requestResetCode') return step('resetCode', { statuses: [told.message] });
        if (service === 'verifyResetCode') return step('resetPassword', { statuses: [told.message] });
        // Back to the booking as an existing client: no journey was chosen on these visits, so at its first step.
        return { screen: 'home', texts: [told.message] };
      }
      if (isWaiting(before)) return undefined;
      const on = before.screen;
      if (e.type === 'reset.requestCode' && on === 'resetEmail') return { waiting: 'requestResetCode' };
      if (e.type === 'reset.verifyCode' && on === 'resetCode') return { waiting: 'verifyResetCode' };
      if (e.type === 'reset.back' && on === 'resetCode') return step('resetEmail');
      if (e.type === 'reset.setPassword' && on === 'resetPassword') {
        const { password, confirm } = e as unknown as { password: string; confirm: string };
        return password === confirm ? { waiting: 'resetPassword' } : step('resetPassword', { texts: [PASSWORDS_DO_NOT_MATCH] });
      }
      return undefined;
    },
  },
});
