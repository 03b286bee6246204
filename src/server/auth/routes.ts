// SPEC 7: POST /check-passenger-email (SPEC 4 'Email check', SPEC 8 messages), and the password reset:
// POST /auth/forgot-password, /auth/verify-code, /auth/reset-password.
import { Hono, type Context } from 'hono';
import { clientAddress } from '../http/clientAddress';
import { CheckEmailRequest, ForgotPasswordRequest, ResetPasswordRequest, VerifyCodeRequest } from '../../domain/requestSchemas';
import { EMAIL_FOUND, EMAIL_NOT_FOUND } from '../../domain/messages';
import { readBody } from '../http/body';
import { signIn } from './passengers';
import { resetPassword, sendResetCode, verifyResetCode, type ResetDeps } from './passwordReset';
import { loadSettings, type AppEnv } from '../deps';

export const WRONG_PASSWORD = 'The password is not correct for this email. Please try again.';

function resetDeps(c: Context<AppEnv>): ResetDeps {
  const { db, security } = c.var.deps;
  return {
    db, secret: security.secret, hashCost: security.passwordHashCost, client: clientAddress(c, security.trustProxy), limits: security.limits,
  };
}

export const authRoutes = new Hono<AppEnv>()
  .post('/check-passenger-email', async (c) => {
    const { db, security } = c.var.deps;
    const { email, password } = await readBody(c, CheckEmailRequest);
    const result = await signIn(db, { email, password, client: clientAddress(c, security.trustProxy), hashCost: security.passwordHashCost });
    if (result.ok) return c.json({ success: true, found: true, message: EMAIL_FOUND });
    if (result.reason === 'not_found') return c.json({ success: false, found: false, message: EMAIL_NOT_FOUND });
    return c.json({ success: false, found: true, message: WRONG_PASSWORD });
  })
  .post('/auth/forgot-password', async (c) => {
    const { email } = await readBody(c, ForgotPasswordRequest);
    const company = (await loadSettings(c.var.deps.db)).Company_Name ?? 'booking';
    const message = await sendResetCode(resetDeps(c), email, company);
    c.var.deps.mail.kick();
    return c.json({ success: true, message });
  })
  .post('/auth/verify-code', async (c) => {
    const { email, code } = await readBody(c, VerifyCodeRequest);
    return c.json({ success: true, message: await verifyResetCode(resetDeps(c), email, code) });
  })
  .post('/auth/reset-password', async (c) => {
    const { email, code, new_password } = await readBody(c, ResetPasswordRequest);
    return c.json({ success: true, message: await resetPassword(resetDeps(c), email, code, new_password) });
  });
