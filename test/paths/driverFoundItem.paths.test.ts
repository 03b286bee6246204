// The found item form's generated paths in Chromium (./pathRunner.ts), issue 43 §3: machines/driverFoundItem.ts on the
// real driver's page against the real server, as the demo driver Daniel Price. Each path has a job of its own (a
// booking of Albion's given to him and LB19 XKE by the office, as ./driver.paths.test.ts makes it), shown to the
// page as on board so that the form opens; the server's answers are real where it gives them (the job on the server
// was never on board, so a report is refused with its 409), and asked of it otherwise (the entry's number, a dropped
// call, an ended session, a refusal naming the field).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { DRIVER_NOTICES } from '../../machines/driver';
import { blank, item, model, NUMBER, reportFound } from '../machine/models/driverFoundItem';
import { onBoard } from '../machine/models/driver';
import type { ModelEvent } from '../machine/modelPaths';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { browserPaths, type PathOracle, type PathPage } from './pathRunner';
import type { Expected } from './screens';
import { API_HEADERS } from './server';
import { trip } from './data';
import { ukDateInDays } from '../e2e/harness';
import type { BookingResponse, PriceDetail, PriceResponse } from '../../src/domain/schemas';

type Answer = { type: string; output?: { number: string }; error?: Error & { status?: number; field?: string } };
const API = '/api/v1';
const DRIVER = `${API}/driver`;
const MOBILE = '07700 900101';
const MOBILE_E164 = '+447700900101';
const SIGNED_OUT = 'Please sign in again: your session has ended.';
const ref = (p: PathPage) => p.data.reference as string;

/** A booking of Albion's three weeks ahead, given by the office to Daniel Price and LB19 XKE: its reference. */
async function dispatchedJob(p: PathPage): Promise<string> {
  const session = await fetch(`${p.server.url}${API}/operator/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify(DEMO_STAFF[0]) });
  const cookie = session.headers.get('set-cookie')!.split(';')[0];
  const staff = async <T>(method: string, at: string, body?: unknown) => (await (await fetch(`${p.server.url}${API}${at}`, {
    method, headers: { ...API_HEADERS, cookie }, body: body === undefined ? undefined : JSON.stringify(body),
  })).json()) as T;
  const form = { ...trip(), pickup_date: ukDateInDays(21) };
  const prices = (await p.server.call<PriceResponse>('POST', '/calculate-distance-price', form)).price_details;
  const made = await p.server.call<BookingResponse>('POST', '/booking', {
    selectedVehicleData: prices.find((x: PriceDetail) => x.company_name === 'Albion Executive Cars' && x.vehicle_type === 'Saloon'), bookingType: 'milleage',
    bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Eleanor', surname: 'Whitfield', number: '07700 900321', email: `found-path-${Date.now()}@example.com`, additionalInfo: '' },
  });
  const reference = made.data!.booking.booking_number;
  const { data: { drivers } } = await staff<{ data: { drivers: { id: number; name: string }[] } }>('GET', '/operator/data/drivers');
  const { data: { cars } } = await staff<{ data: { cars: { id: number; registration: string }[] } }>('GET', '/operator/data/cars');
  await staff('POST', `/operator/bookings/${reference}/driver`, {
    driver_id: String(drivers.find((d) => d.name === 'Daniel Price')!.id), car_id: String(cars.find((c) => c.registration === 'LB19 XKE')!.id),
  });
  return reference;
}

/** The newest sign-in code texted to Daniel Price (DATA_DIR/sms), and its file. */
function newestCode(p: PathPage): { file: string; code: string } | null {
  const dir = path.join(p.server.dataDir, 'sms');
  if (!existsSync(dir)) return null;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().reverse()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const code = /(\d{6}) is your .* driver code/.exec(text)?.[1];
    if (code && text.includes(`To: ${MOBILE_E164}`)) return { file, code };
  }
  return null;
}

/** Signs the page's browser in as Daniel Price with the code texted to him. */
async function withSession(p: PathPage) {
  const since = newestCode(p)?.file ?? '';
  await p.server.call('POST', '/driver/code', { mobile: MOBILE });
  await expect.poll(() => (newestCode(p)?.file ?? '') > since, { timeout: 30_000, message: 'a new sign-in code is texted' }).toBe(true);
  const res = await fetch(`${p.server.url}${DRIVER}/session`, { method: 'POST', headers: API_HEADERS, body: JSON.stringify({ mobile: MOBILE, code: newestCode(p)!.code }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  await p.page.context().addCookies([{ name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1), url: `${p.server.url}${DRIVER}/` }]);
}

const DESCRIPTION = 'What did you find? *';
const PLACE = 'Where in the car?';
/** The form over the job: its two inputs, its two buttons, and the job's own step buttons gone while it is open. */
const form = (more: Partial<Expected> = {}): Expected => ({
  screen: 'driverJob', fields: [DESCRIPTION, PLACE], buttons: ['Send to the office', 'Cancel'], noButtons: ['Completed', 'Report a found item'], ...more,
} as Expected);

const oracle: PathOracle<{ reference: string }> = {
  calls: { reportFound: { method: 'POST', path: /^\/api\/v1\/driver\/jobs\/BK-[A-Z0-9]{8}\/found$/ } },
  services: { reportFound },
  opens: () => form(),
  after(before, e) {
    if (e.type === reportFound.done().type) {
      if (!('waiting' in before)) return undefined;
      return { screen: 'driverJob', statuses: [DRIVER_NOTICES.found(NUMBER)], buttons: ['Report a found item', 'Completed'], noButtons: ['Send to the office'] };
    }
    if (e.type === reportFound.fails(null).type) {
      if (!('waiting' in before)) return undefined;
      const { error } = e as unknown as Answer;
      // The session ended: signed out, to come back to the job after the next sign-in.
      if (error!.status === 401) return { screen: 'driverSignIn', alerts: [SIGNED_OUT] };
      // A field refused shows under it; anything else above the form; what was typed stays.
      if (error!.field) return form({ fieldErrors: { [DESCRIPTION]: error!.message }, values: { [DESCRIPTION]: item.description, [PLACE]: item.found_place } });
      return form({ alerts: [error!.message], values: { [DESCRIPTION]: item.description, [PLACE]: item.found_place } });
    }
    if ('waiting' in before) return undefined;
    const ev = e as unknown as { type: string; description?: string };
    if (ev.type === 'found.submit') return ev.description ? { waiting: 'reportFound' } : form({ fieldErrors: { [DESCRIPTION]: 'Enter what you found.' } });
    if (ev.type === 'found.cancel') return { screen: 'driverJob', buttons: ['Report a found item', 'Completed'], noButtons: ['Send to the office'] };
    return undefined;
  },
};

/** The report's answer, as the model has it: the server's own 409 (the job was never on board), or one asked of it. */
async function arrange(p: PathPage, then: ModelEvent[]) {
  const at = `${DRIVER}/jobs/${ref(p)}/found`;
  const answer = then.find((e) => e.type === reportFound.done().type || e.type === reportFound.fails(null).type) as Answer | undefined;
  if (answer?.output) await p.server.fault({ method: 'POST', path: at, kind: 'answer', body: { entry: { id: 42, number: answer.output.number } } });
  else if (answer?.error?.status === 409) return;
  else if (answer?.error?.status) {
    await p.server.fault({ method: 'POST', path: at, kind: 'status', status: answer.error.status, message: answer.error.message, field: answer.error.field });
  } else if (answer?.error) await p.server.fault({ method: 'POST', path: at, kind: 'drop' });
}

const send = (submit: typeof item) => async (p: PathPage, { then }: { then: ModelEvent[] }) => {
  await arrange(p, then);
  await p.page.getByLabel(DESCRIPTION.replace(' *', '')).fill(submit.description);
  await p.page.getByLabel(PLACE).fill(submit.found_place);
  await p.page.getByRole('button', { name: 'Send to the office' }).click();
};

browserPaths({
  model,
  width: 375,
  async open(p) {
    p.data.reference = await dispatchedJob(p);
    await withSession(p);
    // The job as the page is shown it: its passenger on board (the server's job stays as dispatched).
    await p.server.fault({ method: 'GET', path: `${DRIVER}/jobs/${ref(p)}`, kind: 'answer', body: { job: { ...onBoard, reference: ref(p) } } });
    await p.typeUrl(`/driver/jobs/${ref(p)}`);
    await p.page.getByRole('button', { name: 'Report a found item' }).click();
  },
  acts: {
    [`found.submit ${item.description} ${item.found_place}`]: send(item),
    'found.submit': send(blank as typeof item),
    'found.cancel': async (p) => { await p.page.getByRole('button', { name: 'Cancel', exact: true }).click(); },
  },
  oracle,
});
