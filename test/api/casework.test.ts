// Issue 43 §3 through the API: Complaints and Lost property. A Contact Us message opens its entry (linked to its
// booking, with the booking's driver and car, whatever the case of the reference; a reference of no booking kept as
// typed), the office's own entries and who sees and does what (the office all, a company's staff their company's
// bookings' only, nobody without a session), every refusal naming its field with nothing written, closing once with
// one e-mail however many presses, the audit rows and the booking's timeline, the driver's "found item" on their own
// job only, and the CSV of a range of days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, recordDriverAndCar, testApp } from './setup';
import { codeFor, stepAs } from './driverHelpers';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { ukToday } from '../../src/domain/ukTime';

let t: Awaited<ReturnType<typeof testApp>>;
const [ADMIN, METRO] = DEMO_STAFF;
const DISPATCHER = { email: 'casework-desk@albion-executive.co.uk', name: 'Ola Bright', password: 'Casework-Desk-2030' };
const ALBION = 'Albion Executive Cars';
const METRO_CARS = 'Metro Cars London';

let admin: Record<string, string>;
let metro: Record<string, string>;
let dispatcher: Record<string, string>;

async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

/** A date `days` from the app's today (UK), as YYYY-MM-DD. */
const fromToday = (days: number) => new Date(Date.parse(`${ukToday(t?.clock.now ?? new Date())}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let n = 0;
/** A guest booking paid in the car with `company`, dispatched by the office to a new driver and car of that company. */
async function dispatchedBooking(company: string) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: fromToday(3), pickup_hour: '7am', pickup_min: '15', passengers: 1, luggages: 1,
  };
  const prices = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: prices.body.price_details.find((p: any) => p.company_name === company && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Ada', surname: `Byron${++n}`, number: '07700 900456', email: `ada.${process.pid}.${n}@example.com`, additionalInfo: '' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const booking = res.body.data.booking as { id: number; booking_number: string };
  const crew = await recordDriverAndCar(t.db, company, { name: `Case Driver ${n}` });
  const assigned = await t.call('POST', `/operator/bookings/${booking.booking_number}/driver`, { driver_id: crew.driver_id, car_id: crew.car_id }, admin);
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  return { ...booking, ...crew, date: form.pickup_date };
}

const count = async (table: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
const auditRows = (subject: string) => t.db.query<{ action: string; staff_name: string; booking_id: number | null }>(
  'SELECT action, staff_name, booking_id FROM audit_log WHERE subject = $1 ORDER BY id', [subject]);

const complaint = (over: Record<string, unknown> = {}) => ({
  booking_reference: '', booking_date: '', contact_name: 'Rosa Park', contact_email: 'rosa@example.com', contact_phone: '07700 900777',
  source: 'phone', nature: 'The driver was twenty minutes late and did not call.', investigation: '', action_taken: '', notes: '', ...over,
});
const lostItem = (over: Record<string, unknown> = {}) => ({
  kind: 'found', booking_reference: '', booking_date: '', contact_name: '', contact_email: '', contact_phone: '', source: 'driver',
  description: 'A black leather glove', found_on: fromToday(0), found_place: 'Back seat', return_attempts: '', disposal: '',
  reported_on: '', lost_on: '', lost_place: '', searches: '', notes: '', ...over,
});

let albion: Awaited<ReturnType<typeof dispatchedBooking>>;
let metroBooking: Awaited<ReturnType<typeof dispatchedBooking>>;

beforeAll(async () => {
  t = await testApp();
  await runAdmin(t.db, ['add-staff', '--email', DISPATCHER.email, '--name', DISPATCHER.name, '--role', 'dispatcher', '--password', DISPATCHER.password],
    TEST_SECURITY.passwordHashCost);
  [admin, metro, dispatcher] = [await signIn(ADMIN.email, ADMIN.password), await signIn(METRO.email, METRO.password),
    await signIn(DISPATCHER.email, DISPATCHER.password)];
  albion = await dispatchedBooking(ALBION);
  metroBooking = await dispatchedBooking(METRO_CARS);
});
afterAll(async () => { await t.db.close(); });

describe('a Contact Us message about a complaint or a lost item', () => {
  const message = (over: Record<string, unknown>) => ({
    firstName: 'Noah', lastName: 'Patel', email: 'noah@example.com', telephone: '07700 900456', queryReason: 'Lost Item',
    bookingNumber: '', comments: 'I left a blue umbrella in the car.', ...over,
  });

  it("opens a lost property entry linked to its booking, typed in lower case, with the booking's driver and car", async () => {
    const res = await t.call('POST', '/contact-us', message({ bookingNumber: albion.booking_number.toLowerCase() }));
    expect(res.status).toBe(200);
    const [entry] = await t.db.query<any>(
      `SELECT e.*, to_char(e.booking_date, 'YYYY-MM-DD') AS booking_date, to_char(e.reported_on, 'YYYY-MM-DD') AS reported_on,
              m.query_reason FROM lost_property e JOIN contact_messages m ON m.id = e.contact_message_id ORDER BY e.id DESC LIMIT 1`);
    expect(entry).toMatchObject({
      kind: 'reported', status: 'open', source: 'contact_form', query_reason: 'Lost Item', booking_id: albion.id,
      booking_reference: albion.booking_number, booking_date: albion.date, driver_id: Number(albion.driver_id), car_id: Number(albion.car_id),
      driver_name: albion.name, vehicle_registration: albion.registration, contact_name: 'Noah Patel', contact_email: 'noah@example.com',
      contact_phone: '+447700900456', description: 'I left a blue umbrella in the car.', reported_on: ukToday(t.clock.now), opened_by: 'Contact Us form',
    });
    // The booking's timeline says so; the operator's e-mail about the message is written as before.
    const page = await t.call('GET', `/operator/bookings/${albion.booking_number}`, undefined, admin);
    expect(page.body.timeline).toContainEqual(expect.objectContaining({ kind: 'change', text: 'Lost property opened', by: 'Contact Us form' }));
    const [mail] = await t.db.query<any>("SELECT subject FROM outbound_emails WHERE kind = 'contact_message' ORDER BY id DESC LIMIT 1");
    expect(mail.subject).toMatch(/^Contact form #\d+: Lost Item from Noah Patel$/);
  });

  it('opens a complaint whose reference names no booking, kept as typed and not linked', async () => {
    const res = await t.call('POST', '/contact-us', message({ queryReason: 'Complaint', bookingNumber: 'BK-ZZZZ2222', comments: 'Rude on the phone.' }));
    expect(res.status).toBe(200);
    const [entry] = await t.db.query<any>('SELECT * FROM complaints ORDER BY id DESC LIMIT 1');
    expect(entry).toMatchObject({ booking_reference: 'BK-ZZZZ2222', booking_id: null, company_id: null, driver_id: null, driver_name: '', nature: 'Rude on the phone.' });
  });

  it('opens nothing for another reason, and one entry per message', async () => {
    const before = [await count('complaints'), await count('lost_property')];
    expect((await t.call('POST', '/contact-us', message({ queryReason: 'Invoice' }))).status).toBe(200);
    expect([await count('complaints'), await count('lost_property')]).toEqual(before);
    const [{ messages, entries }] = await t.db.query<{ messages: number; entries: number }>(
      `SELECT (SELECT count(*)::int FROM contact_messages WHERE query_reason IN ('Complaint', 'Lost Item')) AS messages,
              (SELECT count(*)::int FROM complaints WHERE contact_message_id IS NOT NULL)
              + (SELECT count(*)::int FROM lost_property WHERE contact_message_id IS NOT NULL) AS entries`);
    expect(entries).toBe(messages);
  });
});

describe("the office's own entries", () => {
  it('needs a session: 401 for every call', async () => {
    for (const [method, path, body] of [
      ['GET', '/operator/casework/complaints'], ['GET', '/operator/casework/lost-property/1'], ['POST', '/operator/casework/complaints', complaint()],
      ['PUT', '/operator/casework/complaints/1', complaint()], ['POST', '/operator/casework/complaints/1/close', { outcome: 'x' }],
      ['GET', `/operator/casework/complaints/export?from=${fromToday(0)}&to=${fromToday(0)}`],
    ] as const) {
      expect((await t.call(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it("opens a complaint linked to the booking named, with its driver and car, audited on the booking's timeline", async () => {
    const res = await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: ` ${albion.booking_number.toLowerCase()} ` }), dispatcher);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const one = await t.call('GET', `/operator/casework/complaints/${res.body.id}`, undefined, dispatcher);
    expect(one.body.entry).toMatchObject({
      number: res.body.number, status: 'open', source: 'phone', booking_reference: albion.booking_number, booking_id: albion.id,
      booking_date: albion.date, company_name: ALBION, driver_name: albion.name, vehicle_registration: albion.registration,
      contact_phone: '+447700900777', opened_by: `${DISPATCHER.name} (${DISPATCHER.email})`,
    });
    expect(one.body.may).toEqual({ edit: true, close: true });
    expect(one.body.history).toEqual([expect.objectContaining({ action: 'Complaint opened', by: `${DISPATCHER.name} (${DISPATCHER.email})` })]);
    expect(await auditRows(res.body.number)).toEqual([{ action: 'Complaint opened', staff_name: `${DISPATCHER.name} (${DISPATCHER.email})`, booking_id: albion.id }]);
    const page = await t.call('GET', `/operator/bookings/${albion.booking_number}`, undefined, admin);
    expect(page.body.timeline).toContainEqual(expect.objectContaining({ text: 'Complaint opened', detail: res.body.number }));
  });

  it.each([
    ['an unknown booking reference', complaint({ booking_reference: 'BK-ZZZZ3333' }), 'booking_reference'],
    ['a reference not as the site writes them', complaint({ booking_reference: 'my taxi' }), 'booking_reference'],
    ['no nature', complaint({ nature: '  ' }), 'nature'],
    ['an over-long nature', complaint({ nature: 'x'.repeat(5001) }), 'nature'],
    ['an over-long name', complaint({ contact_name: 'x'.repeat(201) }), 'contact_name'],
    ['a wrong e-mail', complaint({ contact_email: 'rosa@' }), 'contact_email'],
    ['a wrong phone', complaint({ contact_phone: 'call me' }), 'contact_phone'],
    ['a made-up date', complaint({ booking_date: '2030-02-30' }), 'booking_date'],
    ['the Contact Us form as the source', complaint({ source: 'contact_form' }), 'source'],
    ['a number where text goes', complaint({ nature: 42 }), 'nature'],
  ])('refuses a complaint with %s (422 on the field, nothing written)', async (_what, body, field) => {
    const before = [await count('complaints'), await count('audit_log')];
    const res = await t.call('POST', '/operator/casework/complaints', body, admin);
    expect([res.status, res.body.field]).toEqual([422, field]);
    expect([await count('complaints'), await count('audit_log')]).toEqual(before);
  });

  it.each([
    ['found tomorrow', lostItem({ found_on: 'TOMORROW' }), 'found_on'],
    ['found on no date', lostItem({ found_on: '' }), 'found_on'],
    ['reported lost tomorrow', lostItem({ kind: 'reported', reported_on: 'TOMORROW', source: 'phone' }), 'reported_on'],
    ['lost tomorrow', lostItem({ kind: 'reported', reported_on: 'TODAY', lost_on: 'TOMORROW', source: 'phone' }), 'lost_on'],
    ['no kind', lostItem({ kind: 'stolen' }), 'kind'],
    ['no description', lostItem({ description: '' }), 'description'],
    ['an over-long place', lostItem({ found_place: 'x'.repeat(201) }), 'found_place'],
  ])('refuses a lost item %s (422 on the field, nothing written)', async (_what, body, field) => {
    const dated = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === 'TOMORROW' ? fromToday(1) : v === 'TODAY' ? fromToday(0) : v]));
    const before = [await count('lost_property'), await count('audit_log')];
    const res = await t.call('POST', '/operator/casework/lost-property', dated, admin);
    expect([res.status, res.body.field]).toEqual([422, field]);
    expect([await count('lost_property'), await count('audit_log')]).toEqual(before);
  });

  it('changes an open entry, audits the fields that changed, and links the booking when the reference changes', async () => {
    const made = await t.call('POST', '/operator/casework/lost-property', lostItem({ kind: 'reported', found_on: '', reported_on: fromToday(0), source: 'email' }), admin);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const changed = await t.call('PUT', `/operator/casework/lost-property/${made.body.id}`,
      lostItem({ kind: 'found', found_on: '', reported_on: fromToday(0), source: 'email', booking_reference: albion.booking_number, searches: 'Car searched: nothing.' }), admin);
    expect(changed.body, JSON.stringify(changed.body)).toEqual({ id: made.body.id, number: made.body.number, changed: ['booking_reference', 'booking_date', 'searches'] });
    const one = await t.call('GET', `/operator/casework/lost-property/${made.body.id}`, undefined, admin);
    // Still reported (the kind stays), now linked to the booking with its driver and car.
    expect(one.body.entry).toMatchObject({ kind: 'reported', booking_id: albion.id, driver_name: albion.name, searches: 'Car searched: nothing.' });
    const [row] = await t.db.query<any>("SELECT before, after, booking_id FROM audit_log WHERE subject = $1 AND action = 'Lost property updated'", [made.body.number]);
    expect(row).toEqual({
      before: { booking_reference: '', booking_date: null, searches: '' },
      after: { booking_reference: albion.booking_number, booking_date: albion.date, searches: 'Car searched: nothing.' }, booking_id: albion.id,
    });
    const wrong = await t.call('PUT', `/operator/casework/lost-property/${made.body.id}`,
      lostItem({ reported_on: fromToday(0), source: 'email', booking_reference: 'BK-ZZZZ4444' }), admin);
    expect([wrong.status, wrong.body.field]).toEqual([422, 'booking_reference']);
  });
});

describe('who sees and does what', () => {
  let albionEntry: number;
  let metroEntry: number;
  let noBooking: number;

  beforeAll(async () => {
    albionEntry = (await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: albion.booking_number }), admin)).body.id;
    metroEntry = (await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: metroBooking.booking_number }), admin)).body.id;
    noBooking = (await t.call('POST', '/operator/casework/complaints', complaint(), admin)).body.id;
  });

  it("a company's staff see their company's bookings' entries only; the office sees all", async () => {
    const theirs = await t.call('GET', '/operator/casework/complaints?status=all', undefined, metro);
    expect(theirs.status).toBe(200);
    const ids = theirs.body.rows.map((r: any) => r.id);
    expect(ids).toContain(metroEntry);
    expect(ids).not.toContain(albionEntry);
    expect(ids).not.toContain(noBooking);
    expect(theirs.body.rows.every((r: any) => r.company_name === METRO_CARS)).toBe(true);
    for (const id of [albionEntry, noBooking]) {
      expect((await t.call('GET', `/operator/casework/complaints/${id}`, undefined, metro)).status).toBe(404);
      expect((await t.call('PUT', `/operator/casework/complaints/${id}`, complaint(), metro)).status).toBe(404);
    }
    const all = await t.call('GET', '/operator/casework/complaints?status=all', undefined, dispatcher);
    expect(all.body.rows.map((r: any) => r.id)).toEqual(expect.arrayContaining([albionEntry, metroEntry, noBooking]));
  });

  it("a company's staff open entries about their own bookings, work on them, and leave closing to the office", async () => {
    expect(await t.call('POST', '/operator/casework/complaints', complaint(), metro)).toMatchObject({ status: 422, body: { field: 'booking_reference' } });
    expect(await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: albion.booking_number }), metro))
      .toMatchObject({ status: 422, body: { field: 'booking_reference' } });
    const made = await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: metroBooking.booking_number }), metro);
    expect(made.status).toBe(201);
    const worked = await t.call('PUT', `/operator/casework/complaints/${made.body.id}`,
      complaint({ booking_reference: metroBooking.booking_number, investigation: 'Spoke to the driver.' }), metro);
    expect(worked.body.changed).toEqual(['investigation']);
    const one = await t.call('GET', `/operator/casework/complaints/${made.body.id}`, undefined, metro);
    expect(one.body.may).toEqual({ edit: true, close: false });
    const close = await t.call('POST', `/operator/casework/complaints/${made.body.id}/close`, { outcome: 'Apologised.' }, metro);
    expect(close.status).toBe(403);
    expect((await t.call('GET', `/operator/casework/complaints/${made.body.id}`, undefined, admin)).body.entry.status).toBe('open');
  });

  it('unknown registers and entries are 404', async () => {
    expect((await t.call('GET', '/operator/casework/praise', undefined, admin)).status).toBe(404);
    expect((await t.call('GET', '/operator/casework/complaints/999999', undefined, admin)).status).toBe(404);
    expect((await t.call('POST', '/operator/casework/complaints/999999/close', { outcome: 'x' }, admin)).status).toBe(404);
  });
});

describe('closing an entry', () => {
  it('needs the outcome (422, nothing written)', async () => {
    const made = await t.call('POST', '/operator/casework/complaints', complaint(), admin);
    const before = await count('audit_log');
    for (const outcome of [undefined, '', '   ', 'x'.repeat(5001)]) {
      const res = await t.call('POST', `/operator/casework/complaints/${made.body.id}/close`, { outcome }, admin);
      expect([res.status, res.body.field]).toEqual([422, 'outcome']);
    }
    expect(await count('audit_log')).toBe(before);
    const [row] = await t.db.query<any>('SELECT status, outcome FROM complaints WHERE id = $1', [made.body.id]);
    expect(row).toEqual({ status: 'open', outcome: '' });
  });

  it('e-mails the complainant exactly once, however many presses at once, and is then read-only', async () => {
    const made = await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: albion.booking_number, contact_email: 'rosa.close@example.com' }), admin);
    const presses = await Promise.all([admin, dispatcher, admin].map((who) =>
      t.call('POST', `/operator/casework/complaints/${made.body.id}/close`, { outcome: 'We apologised and refunded the waiting time.' }, who)));
    expect(presses.map((p) => p.status).sort()).toEqual([200, 409, 409]);
    const mails = await t.db.query<any>("SELECT to_address, subject, body_text, booking_id FROM outbound_emails WHERE kind = 'casework_closed' AND to_address = 'rosa.close@example.com'");
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: `Your complaint ${made.body.number}`, booking_id: albion.id });
    expect(mails[0].body_text).toContain('We apologised and refunded the waiting time.');
    expect(mails[0].body_text).toContain('Dear Rosa Park');
    const one = await t.call('GET', `/operator/casework/complaints/${made.body.id}`, undefined, admin);
    expect(one.body.entry).toMatchObject({ status: 'closed', outcome: 'We apologised and refunded the waiting time.', closed_on: ukToday(t.clock.now) });
    expect(one.body.may).toEqual({ edit: false, close: false });
    expect((await auditRows(made.body.number)).map((r) => r.action)).toEqual(['Complaint opened', 'Complaint closed']);
    expect((await t.call('PUT', `/operator/casework/complaints/${made.body.id}`, complaint(), admin)).status).toBe(409);
    // The booking's timeline shows the e-mail with the close.
    const page = await t.call('GET', `/operator/bookings/${albion.booking_number}`, undefined, admin);
    expect(page.body.timeline).toContainEqual(expect.objectContaining({ kind: 'email', text: `E-mail to rosa.close@example.com: Your complaint ${made.body.number}` }));
  });

  it('sends nothing when the entry has no e-mail address', async () => {
    const made = await t.call('POST', '/operator/casework/lost-property', lostItem(), admin);
    const res = await t.call('POST', `/operator/casework/lost-property/${made.body.id}/close`, { outcome: 'Kept 3 months, then given to charity.' }, admin);
    expect(res.body).toEqual({ number: made.body.number, emailed: null });
  });
});

describe("the driver's found item", () => {
  it('is taken only on their own job once the passenger was on board, and opens a found entry linked to the booking, driver and car', async () => {
    const booking = await dispatchedBooking(ALBION);
    const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [booking.driver_id]);
    await t.call('POST', '/driver/code', { mobile });
    const session = await t.call('POST', '/driver/session', { mobile, code: await codeFor(t, mobile) });
    const driver = { cookie: { Cookie: session.headers['set-cookie'].split(';')[0] } };
    const item = { description: 'A grey laptop bag', found_place: 'Boot' };
    // Not signed in; another driver's job; before the passenger is on board.
    expect((await t.call('POST', `/driver/jobs/${booking.booking_number}/found`, item)).status).toBe(401);
    expect((await t.call('POST', `/driver/jobs/${albion.booking_number}/found`, item, driver.cookie)).status).toBe(404);
    expect((await t.call('POST', `/driver/jobs/${booking.booking_number}/found`, item, driver.cookie)).status).toBe(409);
    expect((await t.call('GET', `/driver/jobs/${booking.booking_number}`, undefined, driver.cookie)).body.job.can_report_found).toBe(false);
    t.clock.now = new Date(Date.parse(`${booking.date}T06:20:00Z`));
    for (const step of ['accepted', 'on_way', 'arrived', 'on_board']) expect((await stepAs(t, booking.booking_number, step, driver)).status).toBe(200);
    expect((await t.call('GET', `/driver/jobs/${booking.booking_number}`, undefined, driver.cookie)).body.job.can_report_found).toBe(true);
    const before = await count('lost_property');
    const blank = await t.call('POST', `/driver/jobs/${booking.booking_number}/found`, { description: ' ', found_place: '' }, driver.cookie);
    expect([blank.status, blank.body.field, await count('lost_property')]).toEqual([422, 'description', before]);
    const res = await t.call('POST', `/driver/jobs/${booking.booking_number}/found`, item, driver.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const one = await t.call('GET', `/operator/casework/lost-property/${res.body.entry.id}`, undefined, admin);
    expect(one.body.entry).toMatchObject({
      kind: 'found', source: 'driver', status: 'open', description: 'A grey laptop bag', found_place: 'Boot', found_on: booking.date,
      booking_id: booking.id, driver_id: Number(booking.driver_id), car_id: Number(booking.car_id), driver_name: booking.name,
      vehicle_registration: booking.registration, opened_by: `${booking.name} (driver)`,
    });
    const page = await t.call('GET', `/operator/bookings/${booking.booking_number}`, undefined, admin);
    expect(page.body.timeline).toContainEqual(expect.objectContaining({ text: 'Lost property opened', by: `${booking.name} (driver)`, detail: res.body.entry.number }));
    const [notice] = await t.db.query<any>("SELECT subject FROM outbound_emails WHERE kind = 'booking_change_notice' AND booking_id = $1 ORDER BY id DESC LIMIT 1", [booking.id]);
    expect(notice.subject).toContain(`Item found in the car (${res.body.entry.number})`);
    t.clock.now = new Date();
  });
});

describe('the export', () => {
  it("writes each register's entries received in the range as CSV, a company's staff theirs only", async () => {
    const made = await t.call('POST', '/operator/casework/complaints', complaint({ booking_reference: metroBooking.booking_number, nature: 'Said "no", then = left' }), admin);
    const today = fromToday(0);
    const res = await t.app.request(`/api/v1/operator/casework/complaints/export?from=${today}&to=${today}`, {
      headers: { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret', ...admin },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const text = await res.text();
    const [header, ...lines] = text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(header).toBe('number,status,received_on,source,booking_reference,booking_date,company_name,driver_name,driver_licence,vehicle_registration,'
      + 'contact_name,contact_email,contact_phone,nature,investigation,action_taken,notes,outcome,opened_by,closed_on,closed_by');
    const line = lines.find((l) => l.startsWith(`${made.body.number},`))!;
    expect(line).toContain(`,Phone,${metroBooking.booking_number},${metroBooking.date.split('-').reverse().join('/')},${METRO_CARS},${metroBooking.name},`);
    // A phone's + is written as text, not a formula (operator/csv.ts).
    expect(line).toContain(`,Rosa Park,rosa@example.com,'+447700900777,"Said ""no"", then = left",`);
    const theirs = await t.app.request(`/api/v1/operator/casework/complaints/export?from=${today}&to=${today}`, {
      headers: { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret', ...metro },
    });
    const theirLines = (await theirs.text()).trimEnd().split('\r\n').slice(1);
    expect(theirLines.length).toBeGreaterThan(0);
    expect(theirLines.every((l) => l.includes(METRO_CARS))).toBe(true);
    const lost = await t.call('GET', `/operator/casework/lost-property/export?from=${today}&to=${today}`, undefined, admin);
    expect(lost.body.split('\r\n')[0]).toContain('number,kind,status,received_on');
    expect(lost.body).toContain('Found in a car');
    expect(await t.call('GET', `/operator/casework/complaints/export?from=${today}&to=${fromToday(-1)}`, undefined, admin)).toMatchObject({ status: 422, body: { field: 'to' } });
  });
});
