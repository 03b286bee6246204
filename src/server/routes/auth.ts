// SPEC 7: POST /auth/forgot-password, /auth/verify-code, /auth/reset-password.
import { Hono } from 'hono';
import { ForgotPasswordRequest, ResetPasswordRequest, VerifyCodeRequest } from '../../domain/schemas';
import { readBody } from '../http/errors';
import { resetPassword, sendResetCode, verifyResetCode, type ResetDeps } from '../auth/passwordReset';
import { loadSettings, type AppDeps } from '../deps';

export function authRoutes(deps: AppDeps) {
  const reset: ResetDeps = { db: deps.db, secret: deps.security.secret, hashCost: deps.security.passwordHashCost };
  return new Hono()
    .post('/auth/forgot-password', async (c) => {
      const { email } = await readBody(c, ForgotPasswordRequest);
      const company = (await loadSettings(deps.db)).Company_Name ?? 'booking';
      const message = await sendResetCode(reset, email, company);
      deps.mail.kick();
      return c.json({ success: true, message });
    })
    .post('/auth/verify-code', async (c) => {
      const { email, code } = await readBody(c, VerifyCodeRequest);
      return c.json({ success: true, message: await verifyResetCode(reset, email, code) });
    })
    .post('/auth/reset-password', async (c) => {
      const { email, code, new_password } = await readBody(c, ResetPasswordRequest);
      return c.json({ success: true, message: await resetPassword(reset, email, code, new_password) });
    });
}
