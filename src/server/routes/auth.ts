// SPEC 7: POST /auth/forgot-password, /auth/verify-code, /auth/reset-password.
import { Hono, type Context } from 'hono';
import { clientAddress } from '../http/clientAddress';
import { ForgotPasswordRequest, ResetPasswordRequest, VerifyCodeRequest } from '../../domain/schemas';
import { readBody } from '../http/body';
import { resetPassword, sendResetCode, verifyResetCode, type ResetDeps } from '../auth/passwordReset';
import { loadSettings, type AppDeps } from '../deps';

export function authRoutes(deps: AppDeps) {
  const resetDeps = (c: Context): ResetDeps => ({
    db: deps.db, secret: deps.security.secret, hashCost: deps.security.passwordHashCost,
    client: clientAddress(c, deps.security.trustProxy), limits: deps.security.limits,
  });
  return new Hono()
    .post('/auth/forgot-password', async (c) => {
      const { email } = await readBody(c, ForgotPasswordRequest);
      const company = (await loadSettings(deps.db)).Company_Name ?? 'booking';
      const message = await sendResetCode(resetDeps(c), email, company);
      deps.mail.kick();
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
}
