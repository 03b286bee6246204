// POST /check-passenger-email (SPEC 4 'Email check', SPEC 8 messages).
import { Hono } from 'hono';
import { CheckEmailRequest } from '../../domain/schemas';
import { readBody } from '../http/body';
import { signIn } from '../auth/passengers';
import { clientAddress } from '../http/clientAddress';
import type { AppDeps } from '../deps';

import { EMAIL_FOUND, EMAIL_NOT_FOUND } from '../../domain/messages';

export const WRONG_PASSWORD = 'The password is not correct for this email. Please try again.';

export function passengerRoutes({ db, security }: AppDeps) {
  return new Hono().post('/check-passenger-email', async (c) => {
    const { email, password } = await readBody(c, CheckEmailRequest);
    const result = await signIn(db, { email, password, client: clientAddress(c, security.trustProxy), hashCost: security.passwordHashCost });
    if (result.ok) return c.json({ success: true, found: true, message: EMAIL_FOUND });
    if (result.reason === 'not_found') return c.json({ success: false, found: false, message: EMAIL_NOT_FOUND });
    return c.json({ success: false, found: true, message: WRONG_PASSWORD });
  });
}
