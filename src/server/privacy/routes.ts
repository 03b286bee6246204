// The console's calls for a passenger's requests about their personal data (issue 43 §4, decision 60), under
// /api/v1/operator/privacy: administrators only (src/domain/retention.ts mayHandlePrivacyRequests); 401 without a
// session, 403 for other staff. The address travels in the body, never in the URL (where logs would keep it).
//   POST /operator/privacy/export  { email }  everything held about it, as JSON (a file to download, and the page)
//   POST /operator/privacy/erase   { email }  erased at once, but what the law keeps; 422 naming `email` while a
//                                            booking of it is still to come
import { Hono, type Context } from 'hono';
import { readBody } from '../http/body';
import { DomainError } from '../errors';
import { loadSettings, type AppEnv } from '../deps';
import { requireStaff } from '../operator/session';
import type { Staff } from '../operator/staff';
import { MESSAGES } from '../../domain/operatorDesk';
import { PrivacyRequestBody, mayHandlePrivacyRequests, privacyEmailProblem } from '../../domain/retention';
import { ukToday } from '../../domain/ukTime';
import { eraseAddress, exportAddress } from './requests';

/** The administrator making the request, and the address it is about (422 naming `email` when it is not one). */
async function request(c: Context<AppEnv>): Promise<{ staff: Staff; email: string }> {
  const staff = await requireStaff(c);
  if (!mayHandlePrivacyRequests(staff.role)) throw new DomainError('forbidden', MESSAGES.adminOnly);
  const { email } = await readBody(c, PrivacyRequestBody);
  const problem = privacyEmailProblem(email);
  if (problem) throw new DomainError('invalid', problem, 'email');
  return { staff, email: email!.trim() };
}

const byStaff = (s: Staff) => ({ staffId: s.id, name: `${s.name} (${s.email})` });

export const privacyRoutes = new Hono<AppEnv>()
  .post('/operator/privacy/export', async (c) => {
    const { staff, email } = await request(c);
    const { db, now } = c.var.deps;
    const data = await exportAddress(db, email, byStaff(staff), await loadSettings(db), now());
    c.header('Content-Disposition', `attachment; filename="personal-data-${ukToday(now())}.json"`);
    c.header('Cache-Control', 'no-store');
    return c.json(data);
  })
  .post('/operator/privacy/erase', async (c) => {
    const { staff, email } = await request(c);
    const { db, now } = c.var.deps;
    return c.json(await eraseAddress(db, email, byStaff(staff), await loadSettings(db), now()));
  });
