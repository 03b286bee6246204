// The console's session cookie (issue 39, decision 47). In production it is `__Host-operator_session`: Secure whatever
// the request came over (a proxy that forgot X-Forwarded-Proto must not make it travel in clear), Path=/ and no Domain,
// so no other site under the same domain can set or shadow it. Elsewhere (http://localhost) it is `operator_session`
// on the console's calls alone, Secure when the request came over HTTPS. The board's background poll says so in a
// header, and is then no use of the session (./staff.ts).
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../deps';
import { DEFAULT_STAFF_SESSION } from '../config';
import { staffOfSession, type Staff } from './staff';
import { DomainError } from '../errors';
import { MESSAGES } from '../../domain/operatorDesk';

export const SESSION_COOKIE = 'operator_session';
/** Sent by the board's poll for the newest booking (src/web/views/operator/operatorApi.ts). */
export const BACKGROUND_POLL_HEADER = 'X-Background-Poll';

const settingsOf = (c: Context<AppEnv>) => c.var.deps.security.staffSession ?? DEFAULT_STAFF_SESSION;

/** Whether the request came over HTTPS (directly, or behind a trusted proxy that says so). */
function isHttps(c: Context<AppEnv>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return c.var.deps.security.trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0].trim() === 'https';
}

/** The cookie's name and where it goes: `__Host-` needs Path=/ and Secure, which a plain-HTTP dev server cannot have. */
function cookie(c: Context<AppEnv>) {
  if (settingsOf(c).secureCookie) return { name: `__Host-${SESSION_COOKIE}`, path: '/', secure: true };
  return { name: SESSION_COOKIE, path: '/api/v1/operator', secure: isHttps(c) };
}

/** The session token this browser sent, if any. */
export const sessionToken = (c: Context<AppEnv>) => getCookie(c, cookie(c).name);

/** Hands a new session to the browser, for as long as the session can last. */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
  const { name, path, secure } = cookie(c);
  setCookie(c, name, token, { httpOnly: true, sameSite: 'Strict', path, secure, maxAge: settingsOf(c).hours * 3600 });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { name, path, secure } = cookie(c);
  deleteCookie(c, name, { path, secure });
}

/** The member of staff signed in by this request's cookie (null when none is), the poll's check counting as no use. */
export async function staffOfRequest(c: Context<AppEnv>, opts: { background?: boolean } = {}): Promise<Staff | null> {
  const token = sessionToken(c);
  if (!token) return null;
  // A call made by the console by itself (the board's poll, its live stream) reads the session without keeping it.
  return staffOfSession(c.var.deps.db, token, { limits: settingsOf(c), background: opts.background === true || c.req.header(BACKGROUND_POLL_HEADER) === '1' });
}

/** The member of staff signed in, for a console call; none is a 401 that signs the console out. */
export async function requireStaff(c: Context<AppEnv>, opts: { background?: boolean } = {}): Promise<Staff> {
  const staff = await staffOfRequest(c, opts);
  if (!staff) throw new DomainError('unauthenticated', MESSAGES.sessionEnded);
  return staff;
}
