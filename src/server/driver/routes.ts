// The driver's calls, under /api/v1/driver (issue 41 §2): a code to the mobile, a session for this device in an
// HttpOnly cookie (as the console's: `__Host-` and Secure in production), the driver's jobs, their steps and the car's
// position while on the way. Every
// call but asking for a code and signing in needs the session (401 without); another driver's job is 404.
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { number, optional, string, type, union, unknown } from 'superstruct';
import { clientAddress } from '../http/clientAddress';
import { readBody } from '../http/body';
import { DomainError } from '../errors';
import { loadSettings, type AppEnv } from '../deps';
import { CODE_ANSWER_MS, DRIVER_MESSAGES, DRIVER_SESSION_DAYS, driverOfSession, endDriverSession, requestCode, signInDriver, type Driver } from './signIn';
import { driverJob, driverJobs, reportFound, takeStep, type JobDeps } from './jobs';
import { FoundItemBody } from '../../domain/casework';
import { recordPosition } from './positions';
import { isJobStep, JOB_STEPS } from '../../domain/driverJobs';

const COOKIE = 'driver_session';

function cookie(c: Context<AppEnv>) {
  if (c.var.deps.security.staffSession?.secureCookie) return { name: `__Host-${COOKIE}`, path: '/', secure: true };
  const https = new URL(c.req.url).protocol === 'https:'
    || (c.var.deps.security.trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0].trim() === 'https');
  return { name: COOKIE, path: '/api/v1/driver', secure: https };
}

async function requireDriver(c: Context<AppEnv>): Promise<Driver> {
  const driver = await driverOfSession(c.var.deps.db, getCookie(c, cookie(c).name));
  if (!driver) throw new DomainError('unauthenticated', DRIVER_MESSAGES.signedOut);
  return driver;
}

async function signInDeps(c: Context<AppEnv>) {
  const { db, security } = c.var.deps;
  const settings = await loadSettings(db);
  return { db, secret: security.secret, limits: security.limits, client: clientAddress(c, security.trustProxy), companyName: settings.Company_Name?.trim() || 'the office' };
}

async function jobDeps(c: Context<AppEnv>): Promise<JobDeps> {
  const { db, siteUrl, now } = c.var.deps;
  return { db, siteUrl, now: now(), settings: await loadSettings(db) };
}

/** Text, or a number as a phone field may send it; the rules' own words say what is wrong with it. */
const typed = optional(union([string(), number()]));

export const driverRoutes = new Hono<AppEnv>()
  .post('/driver/code', async (c) => {
    const body = await readBody(c, type({ mobile: typed }));
    const started = performance.now();
    const message = await requestCode(await signInDeps(c), typeof body.mobile === 'number' ? String(body.mobile) : body.mobile);
    // The same time for any number: a driver's is not told by the extra work it takes.
    const left = CODE_ANSWER_MS - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    c.var.deps.mail.kick();
    return c.json({ message });
  })
  .post('/driver/session', async (c) => {
    const body = await readBody(c, type({ mobile: typed, code: typed }));
    const { token, driver } = await signInDriver(await signInDeps(c), body.mobile === undefined ? undefined : String(body.mobile),
      body.code === undefined ? undefined : String(body.code));
    const { name, path, secure } = cookie(c);
    setCookie(c, name, token, { httpOnly: true, sameSite: 'Strict', path, secure, maxAge: DRIVER_SESSION_DAYS * 86_400 });
    return c.json({ driver: { name: driver.name, company_name: driver.company_name } });
  })
  // Who is signed in on this device: null when nobody is (not a 401, which a browser logs as an error).
  .get('/driver/session', async (c) => {
    const driver = await driverOfSession(c.var.deps.db, getCookie(c, cookie(c).name));
    return c.json({ driver: driver && { name: driver.name, company_name: driver.company_name } });
  })
  .delete('/driver/session', async (c) => {
    const { name, path, secure } = cookie(c);
    const token = getCookie(c, name);
    if (token) await endDriverSession(c.var.deps.db, token);
    deleteCookie(c, name, { path, secure });
    return c.json({ signedOut: true });
  })
  .get('/driver/jobs', async (c) => {
    const driver = await requireDriver(c);
    return c.json({ jobs: await driverJobs(await jobDeps(c), driver) });
  })
  .get('/driver/jobs/:reference', async (c) => {
    const driver = await requireDriver(c);
    return c.json({ job: await driverJob(await jobDeps(c), driver, c.req.param('reference')) });
  })
  .post('/driver/jobs/:reference/status', async (c) => {
    const driver = await requireDriver(c);
    const { status } = await readBody(c, type({ status: optional(string()) }));
    if (!isJobStep(status)) throw new DomainError('invalid', `status is one of ${JOB_STEPS.join(', ')}`, 'status');
    const job = await takeStep(await jobDeps(c), driver, c.req.param('reference'), status);
    c.var.deps.mail.kick();
    return c.json({ job });
  })
  // An item found in the car on this job (issue 43 §3): { description, found_place } opens a lost property entry.
  .post('/driver/jobs/:reference/found', async (c) => {
    const driver = await requireDriver(c);
    const entry = await reportFound(await jobDeps(c), driver, c.req.param('reference'), await readBody(c, FoundItemBody));
    c.var.deps.mail.kick();
    return c.json({ entry }, 201);
  })
  // The car's place while on the way (issue 41 §3): { lat, lng, accuracy? } from the browser's geolocation.
  .post('/driver/jobs/:reference/position', async (c) => {
    const driver = await requireDriver(c);
    const body = await readBody(c, type({ lat: optional(unknown()), lng: optional(unknown()), accuracy: optional(unknown()) }));
    return c.json(await recordPosition(c.var.deps.db, driver, c.req.param('reference'), body, c.var.deps.now()));
  });
