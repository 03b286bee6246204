// Issue 41 §1, through the API: the drivers and cars on record (Operator data, Drivers and Vehicles), who sees and
// changes which (the office every company's, a company's staff their own), the forms' rules with the field each
// refusal names, the expiry flags, and dispatching a booking to a driver and a car from the record: what may take it,
// the copy the booking keeps, and that every refusal leaves the booking, its e-mails and the record as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_CARS, DEMO_DRIVERS } from '../../src/server/operator/seedDrivers';
import { ukToday } from '../../src/domain/ukTime';

let t: Awaited<ReturnType<typeof testApp>>;
const [ADMIN, METRO] = DEMO_STAFF;
const DISPATCHER = { email: 'fleet-night@albion-executive.co.uk', name: 'Nia Roberts', password: 'Night-Desk-2030-fleet' };

let admin: string;
let metro: string;
let dispatcher: string;
/** Company name -> id, and vehicle type name -> id, as the office's record pages list them. */
const companyIds = new Map<string, number>();
const typeIds = new Map<string, number>();
const ALBION = 'Albion Executive Cars';
const METRO_CARS = 'Metro Cars London';
const THAMES = 'Thames Valley Chauffeurs';

/** Signs in and returns the session cookie to send back. */
async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.headers['set-cookie'].split(';')[0];
}
const as = (cookie: string) => ({ Cookie: cookie });

beforeAll(async () => {
  t = await testApp();
  await runAdmin(t.db, ['add-staff', '--email', DISPATCHER.email, '--name', DISPATCHER.name, '--role', 'dispatcher', '--password', DISPATCHER.password],
    TEST_SECURITY.passwordHashCost);
  [admin, metro, dispatcher] = [await signIn(ADMIN.email, ADMIN.password), await signIn(METRO.email, METRO.password),
    await signIn(DISPATCHER.email, DISPATCHER.password)];
  const cars = await t.call('GET', '/operator/data/cars', undefined, as(admin));
  expect(cars.status).toBe(200);
  for (const c of cars.body.data.companies) companyIds.set(c.company_name, c.id);
  for (const v of cars.body.data.vehicle_types) typeIds.set(v.category_name, v.id);
});
afterAll(async () => { await t.db.close(); });

// ---- the forms -------------------------------------------------------------------------------------------------

/** A date `days` from the app's today (UK), as YYYY-MM-DD. */
const fromToday = (days: number) => {
  const today = ukToday(t.clock.now);
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

let serial = 600;
/** A fresh Ofcom drama mobile (07700 900600 on) and licence number for each driver made here. */
const nextMobile = () => `07700 900${serial++}`;
let plates = 10;
/** A fresh current-format plate for each car made here (FR10 TST, FR11 TST...). */
const nextPlate = () => `FR${plates++} TST`;

const driverChange = (company: string, over: Record<string, unknown> = {}) => ({
  kind: 'driver', name: 'Test Driver', mobile: nextMobile(), email: '', licence_number: `T${serial}X`, licensing_authority: 'Transport for London',
  licence_expiry: '2031-12-31', company_id: String(companyIds.get(company)), active: 'yes', ...over,
});

const carChange = (company: string, over: Record<string, unknown> = {}) => ({
  kind: 'car', registration: nextPlate(), make: 'Skoda', model: 'Superb', colour: 'Black', vehicle_type_id: String(typeIds.get('Saloon')),
  passengers: '4', suitcases: '2', wheelchair: 'no', licence_number: `PHV ${plates}00`, licence_expiry: '2031-12-31', mot_expiry: '2031-12-31',
  insurance_expiry: '2031-12-31', company_id: String(companyIds.get(company)), active: 'yes', ...over,
});

const save = (cookie: string, change: Record<string, unknown>) => t.call('POST', '/operator/data', { change }, as(cookie));

async function listOf(cookie: string, section: 'drivers' | 'cars') {
  const res = await t.call('GET', `/operator/data/${section}`, undefined, as(cookie));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { drivers?: any[]; cars?: any[]; companies: { id: number; company_name: string }[]; vehicle_types?: any[] };
}

/** Adds a driver (as the admin unless told), and answers the record as the list shows it. */
async function addDriver(company: string, over: Record<string, unknown> = {}, cookie = admin) {
  const change = driverChange(company, over);
  const res = await save(cookie, change);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.db.query<{ id: number }>('SELECT id FROM drivers WHERE licence_number = $1 AND licensing_authority = $2',
    [String(change.licence_number).toUpperCase(), change.licensing_authority]);
  const listed = (await listOf(admin, 'drivers')).drivers!.find((d) => d.id === row.id);
  return { ...listed, change };
}

async function addCar(company: string, over: Record<string, unknown> = {}, cookie = admin) {
  const change = carChange(company, over);
  const res = await save(cookie, change);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.db.query<{ id: number }>('SELECT id FROM cars WHERE plate_key = $1', [String(change.registration).replace(/\s+/g, '').toUpperCase()]);
  const listed = (await listOf(admin, 'cars')).cars!.find((c) => c.id === row.id);
  return { ...listed, change };
}

/** Everything the record pages keep: unchanged by a refused change. */
const recordState = async () => ({
  drivers: await t.db.query('SELECT * FROM drivers ORDER BY id'),
  cars: await t.db.query('SELECT * FROM cars ORDER BY id'),
  audit: await t.db.query('SELECT id FROM audit_log ORDER BY id'),
});

/** Sends a change that must be refused, and checks that nothing on record changed. */
async function refused(cookie: string, change: Record<string, unknown>, status: number, field?: string) {
  const before = await recordState();
  const res = await save(cookie, change);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (field) expect(res.body.field, JSON.stringify(res.body)).toBe(field);
  expect(await recordState()).toEqual(before);
  return res.body as { message: string; field?: string };
}

describe('who sees and changes which records', () => {
  it('the office lists every company\'s drivers and cars, with every company', async () => {
    const drivers = await listOf(admin, 'drivers');
    expect(new Set(drivers.drivers!.map((d) => d.company_name))).toEqual(new Set([ALBION, METRO_CARS, THAMES]));
    expect(drivers.drivers!.map((d) => d.name)).toEqual(expect.arrayContaining(DEMO_DRIVERS.map((d) => d.name)));
    expect(drivers.companies.map((c) => c.company_name).sort()).toEqual([ALBION, METRO_CARS, THAMES]);
    const cars = await listOf(admin, 'cars');
    expect(cars.cars!.map((c) => c.registration)).toEqual(expect.arrayContaining(DEMO_CARS.map((c) => c.registration)));
    expect(cars.companies.map((c) => c.company_name).sort()).toEqual([ALBION, METRO_CARS, THAMES]);
    expect(cars.vehicle_types!.map((v) => v.category_name)).toContain('Saloon');
  });

  it("a company's staff see only their own company's drivers, cars and company, and no other part of the data", async () => {
    const drivers = await listOf(metro, 'drivers');
    expect(drivers.drivers!.length).toBeGreaterThan(0);
    for (const d of drivers.drivers!) expect(d.company_name).toBe(METRO_CARS);
    expect(drivers.drivers!.map((d) => d.name)).toContain('Samir Haddad');
    expect(drivers.companies.map((c) => c.company_name)).toEqual([METRO_CARS]);
    const cars = await listOf(metro, 'cars');
    expect(cars.cars!.length).toBeGreaterThan(0);
    for (const c of cars.cars!) expect(c.company_name).toBe(METRO_CARS);
    expect(cars.cars!.map((c) => c.registration)).toEqual(['LF68 TXI']);
    expect(cars.companies.map((c) => c.company_name)).toEqual([METRO_CARS]);

    for (const section of ['settings', 'companies', 'fleet', 'places', 'staff', 'audit']) {
      const res = await t.call('GET', `/operator/data/${section}`, undefined, as(metro));
      expect(res.status, section).toBe(403);
      expect(res.body.message).toBe('Only an administrator can do this.');
    }
  });

  it('a dispatcher sees every company\'s drivers and cars, but not the settings', async () => {
    const drivers = await listOf(dispatcher, 'drivers');
    expect(new Set(drivers.drivers!.map((d) => d.company_name))).toEqual(new Set([ALBION, METRO_CARS, THAMES]));
    expect(drivers.companies).toHaveLength(3);
    const cars = await listOf(dispatcher, 'cars');
    expect(new Set(cars.cars!.map((c) => c.company_name))).toEqual(new Set([ALBION, METRO_CARS, THAMES]));
    expect((await t.call('GET', '/operator/data/settings', undefined, as(dispatcher))).status).toBe(403);
    // And keeps any company's records.
    const added = await addDriver(THAMES, { name: 'Dispatcher Added' }, dispatcher);
    expect(added).toMatchObject({ name: 'Dispatcher Added', company_name: THAMES });
  });

  it("a company's staff keep their own company's records and cannot reach another's", async () => {
    const own = await addDriver(METRO_CARS, { name: 'Metro Own' }, metro);
    expect(own.company_name).toBe(METRO_CARS);
    expect((await listOf(metro, 'drivers')).drivers!.map((d) => d.id)).toContain(own.id);

    const toAlbion = await refused(metro, driverChange(ALBION), 422, 'company_id');
    expect(toAlbion.message).toBe("You can only keep your own company's records.");
    await refused(metro, carChange(ALBION), 422, 'company_id');
    // Moving their own driver to another company is refused too.
    await refused(metro, { ...own.change, id: own.id, company_id: String(companyIds.get(ALBION)) }, 422, 'company_id');

    const albionDriver = (await listOf(admin, 'drivers')).drivers!.find((d) => d.name === 'Daniel Price');
    const notTheirs = await refused(metro, driverChange(METRO_CARS, { id: albionDriver.id, name: 'Taken Over' }), 404);
    expect(notTheirs.message).toBe('No such driver on your record.');
    const albionCar = (await listOf(admin, 'cars')).cars!.find((c) => c.registration === 'LB19 XKE');
    await refused(metro, carChange(METRO_CARS, { id: albionCar.id, registration: 'LB19 XKE' }), 404);

    const setting = await refused(metro, { kind: 'setting', name: 'GRACE_TIME', value: '60' }, 403);
    expect(setting.message).toBe('Only an administrator can do this.');
    await refused(dispatcher, { kind: 'setting', name: 'GRACE_TIME', value: '60' }, 403);
    await refused(metro, { kind: 'addStaff', email: 'x@metrocars.london', name: 'X', role: 'admin' }, 403);
  });
});

describe('adding and changing a driver', () => {
  it('refuses each bad field, naming it, and changes nothing', async () => {
    const landline = await refused(admin, driverChange(ALBION, { mobile: '020 7946 0321' }), 422, 'mobile');
    expect(landline.message).toMatch(/not a UK mobile number/);
    await refused(admin, driverChange(ALBION, { mobile: '12' }), 422, 'mobile');
    await refused(admin, driverChange(ALBION, { mobile: '' }), 422, 'mobile');
    await refused(admin, driverChange(ALBION, { licence_expiry: '31/12/2031' }), 422, 'licence_expiry');
    await refused(admin, driverChange(ALBION, { licence_expiry: '2031-02-30' }), 422, 'licence_expiry');
    await refused(admin, driverChange(ALBION, { licence_expiry: '' }), 422, 'licence_expiry');
    const noName = await refused(admin, driverChange(ALBION, { name: '   ' }), 422, 'name');
    expect(noName.message).toBe("Enter the driver's name.");
    const { name: _name, ...withoutName } = driverChange(ALBION);
    await refused(admin, withoutName, 422, 'name');
    await refused(admin, driverChange(ALBION, { licence_number: '' }), 422, 'licence_number');
    await refused(admin, driverChange(ALBION, { licensing_authority: '' }), 422, 'licensing_authority');
    await refused(admin, driverChange(ALBION, { email: 'not-an-email' }), 422, 'email');
    await refused(admin, driverChange(ALBION, { company_id: '' }), 422, 'company_id');
    await refused(admin, driverChange(ALBION, { company_id: '999999' }), 422, 'company_id');
    await refused(admin, driverChange(ALBION, { active: 'maybe' }), 422, 'active');
    // A wrong type is the schema's 422, naming the field, never a 500.
    await refused(admin, driverChange(ALBION, { name: 42 }), 422, 'name');
  });

  it('stores the mobile in E.164, refuses a second driver with it or with the same licence, and audits the addition', async () => {
    const mobile = nextMobile();
    const d = await addDriver(ALBION, { name: 'Esme Turner', mobile, licence_number: 'tst-5150', licensing_authority: 'Transport for London' });
    expect(d).toMatchObject({
      name: 'Esme Turner', mobile: `+44${mobile.replace(/\s/g, '').slice(1)}`, licence_number: 'TST-5150', licensing_authority: 'Transport for London',
      licence_expiry: '2031-12-31', company_name: ALBION, active: true,
    });
    const sameMobile = await refused(admin, driverChange(ALBION, { mobile: `+44 ${mobile.slice(1)}` }), 422, 'mobile');
    expect(sameMobile.message).toMatch(/Another driver on the record has this mobile number/);
    const sameLicence = await refused(admin, driverChange(METRO_CARS, { licence_number: 'TST-5150' }), 422, 'licence_number');
    expect(sameLicence.message).toMatch(/Another driver on the record has this licence number/);
    // The same number from another licensing authority is another licence.
    expect((await save(admin, driverChange(ALBION, { licence_number: 'TST-5150', licensing_authority: 'Reading Borough Council' }))).status).toBe(200);

    const [audit] = await t.db.query<{ action: string; staff_name: string; subject: string; before: unknown; after: any }>(
      "SELECT action, staff_name, subject, before, after FROM audit_log WHERE action = 'Driver added' AND subject = $1", ['Esme Turner, TST-5150']);
    expect(audit).toMatchObject({ action: 'Driver added', staff_name: `${ADMIN.name} (${ADMIN.email})`, before: null, after: { name: 'Esme Turner', mobile: d.mobile } });
  });

  it('changes the driver with the id given, keeping the id, and audits what it was and is', async () => {
    const d = await addDriver(ALBION, { name: 'Owen Hughes' });
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drivers');
    const res = await save(admin, { ...d.change, id: d.id, name: 'Owen Rhys Hughes', licence_expiry: '2032-03-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.done).toBe('Owen Rhys Hughes saved.');
    const after = (await listOf(admin, 'drivers')).drivers!.find((x) => x.id === d.id);
    expect(after).toMatchObject({ id: d.id, name: 'Owen Rhys Hughes', licence_expiry: '2032-03-31', mobile: d.mobile });
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drivers'))[0].n).toBe(n);
    const audit = await t.db.query<{ action: string; before: any; after: any }>(
      "SELECT action, before, after FROM audit_log WHERE action LIKE 'Driver%' AND (after->>'mobile') = $1 ORDER BY id", [d.mobile]);
    expect(audit.map((a) => a.action)).toEqual(['Driver added', 'Driver record changed']);
    expect(audit[1].before).toMatchObject({ id: d.id, name: 'Owen Hughes', licence_expiry: '2031-12-31' });
    expect(audit[1].after).toMatchObject({ name: 'Owen Rhys Hughes', licence_expiry: '2032-03-31' });

    // Changing it to another driver's mobile is refused, and it stays as it was.
    const other = await addDriver(ALBION);
    await refused(admin, { ...d.change, id: d.id, name: 'Owen Rhys Hughes', mobile: other.mobile }, 422, 'mobile');
    // An id not on the record is not found; one that is no id at all names the field.
    await refused(admin, driverChange(ALBION, { id: 999999 }), 404);
    await refused(admin, driverChange(ALBION, { id: 'abc' }), 422, 'id');
  });
});

describe('adding and changing a car', () => {
  it('stores the registration as the plate shows it, and refuses the same plate spaced otherwise', async () => {
    const car = await addCar(ALBION, { registration: 'lb19 xkf', make: 'Volvo', model: 'S90', colour: 'Blue' });
    expect(car).toMatchObject({ registration: 'LB19 XKF', make: 'Volvo', model: 'S90', colour: 'Blue', category_name: 'Saloon', passengers: 4,
      wheelchair: false, company_name: ALBION, active: true });
    for (const plate of ['LB19XKF', 'l b 1 9 x k f', ' LB19  XKF ']) {
      const same = await refused(admin, carChange(METRO_CARS, { registration: plate }), 422, 'registration');
      expect(same.message).toBe('A car with this registration is already on the record.');
    }
    const [audit] = await t.db.query<{ action: string; subject: string; after: any }>(
      "SELECT action, subject, after FROM audit_log WHERE action = 'Vehicle added' AND subject = 'LB19 XKF, Volvo S90'");
    expect(audit).toMatchObject({ action: 'Vehicle added', after: { registration: 'LB19 XKF' } });
  });

  it('refuses each bad field, naming it, and changes nothing', async () => {
    const unknownType = await refused(admin, carChange(ALBION, { vehicle_type_id: '999999' }), 422, 'vehicle_type_id');
    expect(unknownType.message).toBe('Choose the vehicle type from the fleet.');
    await refused(admin, carChange(ALBION, { vehicle_type_id: '' }), 422, 'vehicle_type_id');
    await refused(admin, carChange(ALBION, { registration: '' }), 422, 'registration');
    await refused(admin, carChange(ALBION, { registration: 'LB19-XKG!' }), 422, 'registration');
    await refused(admin, carChange(ALBION, { make: '' }), 422, 'make');
    await refused(admin, carChange(ALBION, { passengers: '0' }), 422, 'passengers');
    await refused(admin, carChange(ALBION, { suitcases: '-1' }), 422, 'suitcases');
    await refused(admin, carChange(ALBION, { mot_expiry: 'next year' }), 422, 'mot_expiry');
    await refused(admin, carChange(ALBION, { insurance_expiry: '' }), 422, 'insurance_expiry');
    await refused(admin, carChange(ALBION, { licence_expiry: '2031-13-01' }), 422, 'licence_expiry');
    await refused(admin, carChange(ALBION, { company_id: '999999' }), 422, 'company_id');
  });

  it('changes the car with the id given, keeping the id, and audits it', async () => {
    const car = await addCar(ALBION, { make: 'Toyota', model: 'Camry' });
    const res = await save(admin, { ...car.change, id: car.id, colour: 'White', registration: car.registration.toLowerCase().replace(' ', '') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = (await listOf(admin, 'cars')).cars!.find((c) => c.id === car.id);
    expect(after).toMatchObject({ id: car.id, registration: car.registration, colour: 'White' });
    const audit = await t.db.query<{ action: string; before: any; after: any }>(
      "SELECT action, before, after FROM audit_log WHERE action LIKE 'Vehicle%' AND subject = $1 ORDER BY id", [`${car.registration}, Toyota Camry`]);
    expect(audit.map((a) => a.action)).toEqual(['Vehicle added', 'Vehicle record changed']);
    expect(audit[1]).toMatchObject({ before: { id: car.id, colour: 'Black' }, after: { colour: 'White' } });
  });
});

describe('expiry flags on the record pages', () => {
  it('flags a licence expiring within 30 days as soon, one past as expired, and nothing far off', async () => {
    const soon = await addDriver(ALBION, { name: 'Flag Soon', licence_expiry: fromToday(10) });
    const expired = await addDriver(ALBION, { name: 'Flag Expired', licence_expiry: fromToday(-1) });
    const far = await addDriver(ALBION, { name: 'Flag Far', licence_expiry: fromToday(400) });
    const today = await addDriver(ALBION, { name: 'Flag Today', licence_expiry: fromToday(0) });
    const listed = (await listOf(admin, 'drivers')).drivers!;
    const notes = (id: number) => listed.find((d) => d.id === id).notes;
    expect(notes(soon.id)).toEqual([{ flag: 'soon', text: expect.stringMatching(/^PHV driver licence expires in 10 days \(/) }]);
    expect(notes(expired.id)).toEqual([{ flag: 'expired', text: expect.stringMatching(/^PHV driver licence expired /) }]);
    expect(notes(far.id)).toEqual([]);
    expect(notes(today.id)).toEqual([{ flag: 'soon', text: expect.stringMatching(/expires today/) }]);
  });

  it("flags each of a car's documents by itself", async () => {
    const car = await addCar(ALBION, { licence_expiry: fromToday(200), mot_expiry: fromToday(5), insurance_expiry: fromToday(-3) });
    const listed = (await listOf(admin, 'cars')).cars!.find((c) => c.id === car.id);
    expect(listed.notes).toEqual([
      { flag: 'soon', text: expect.stringMatching(/^MOT expires in 5 days/) },
      { flag: 'expired', text: expect.stringMatching(/^insurance expired /) },
    ]);
  });
});

// ---- dispatch ----------------------------------------------------------------------------------------------------

const DATE = '2030-09-12';
const bookingForm = (extra: Record<string, unknown> = {}) => ({
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: DATE, pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, ...extra,
});

async function vehicleOf(company: string, form: Record<string, unknown>) {
  const res = await t.call('POST', '/calculate-distance-price', form);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
}

const GRACE = { first: 'Grace', last: 'Adeyemi', email: 'grace.fleet@example.com', phone: '+44 7700 900456' };

/** A guest booking paid in the car, Saloon, 2 passengers. */
async function book(company: string, form = bookingForm()) {
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: await vehicleOf(company, form), selectedVehicle: 1, bookingType: 'milleage', bookingForm: form,
    registrationData: { firstName: GRACE.first, surname: GRACE.last, number: GRACE.phone, email: GRACE.email },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking as { id: number; booking_number: string };
}

const assign = (ref: string, body: unknown, cookie = admin) => t.call('POST', `/operator/bookings/${ref}/driver`, body, as(cookie));
const page = async (ref: string, cookie = admin) => {
  const res = await t.call('GET', `/operator/bookings/${ref}`, undefined, as(cookie));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** What a dispatch changes: the booking's row, its e-mails and the audit log. */
const bookingState = async (id: number) => ({
  booking: await t.db.query('SELECT driver, driver_id, car_id, dispatched_at, status FROM bookings WHERE id = $1', [id]),
  mails: await t.db.query('SELECT id, kind FROM outbound_emails WHERE booking_id = $1 ORDER BY id', [id]),
  audit: await t.db.query('SELECT id FROM audit_log ORDER BY id'),
});

/** An assignment that must be refused (422 unless told), leaving the booking as it was. */
async function refusedAssign(ref: string, id: number, body: unknown, field: string | null, status = 422, cookie = admin) {
  const before = await bookingState(id);
  const res = await assign(ref, body, cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (field) expect(res.body.field, JSON.stringify(res.body)).toBe(field);
  expect(await bookingState(id)).toEqual(before);
  return res.body as { message: string; field?: string };
}

describe('dispatching a booking to a driver and a car from the record', () => {
  let driver: any;
  let car: any;
  beforeAll(async () => {
    driver = await addDriver(ALBION, { name: 'Kofi Mensah', licence_number: 'kd-4410', licence_expiry: '2031-06-30' });
    car = await addCar(ALBION, { registration: 'lk70 fmx', make: 'Mercedes-Benz', model: 'E-Class', colour: 'Silver', passengers: '3',
      licence_number: 'phv 330211', licence_expiry: '2031-01-31', mot_expiry: '2030-12-31', insurance_expiry: '2031-03-31' });
  });

  it('dispatches a good pair: the booking keeps a copy, with who dispatched it, and the passenger is e-mailed', async () => {
    const b = await book(ALBION);
    const before = await page(b.booking_number);
    expect(before.desk.driver).toBeNull();
    expect(before.desk.needs).toEqual({ company_id: companyIds.get(ALBION), company_name: ALBION, pickup_date: DATE, passengers: 2, wheelchair: false });

    const res = await assign(b.booking_number, { driver_id: String(driver.id), car_id: car.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.driver).toEqual({
      name: 'Kofi Mensah', mobile: driver.mobile, vehicle: 'Mercedes-Benz E-Class', registration: 'LK70 FMX', driver_id: driver.id, car_id: car.id,
      licence_number: 'KD-4410', licensing_authority: 'Transport for London', colour: 'Silver', vehicle_licence_number: 'PHV 330211',
      dispatched_by: `${ADMIN.name} (${ADMIN.email})`, dispatched_at: t.clock.now.toISOString(),
    });
    expect(res.body.driver.dispatched_by).toContain(ADMIN.name);
    expect(res.body.driver.mobile).toMatch(/^\+447700900\d{3}$/);

    expect((await page(b.booking_number)).desk.driver).toEqual(res.body.driver);
    const [row] = await t.db.query<{ driver_id: number; car_id: number; dispatched_at: Date | string }>(
      'SELECT driver_id, car_id, dispatched_at FROM bookings WHERE id = $1', [b.id]);
    expect(row.driver_id).toBe(driver.id);
    expect(row.car_id).toBe(car.id);
    expect(new Date(row.dispatched_at).toISOString()).toBe(t.clock.now.toISOString());

    const mails = await t.db.query<{ to_address: string; subject: string; body_text: string }>(
      "SELECT to_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'driver_assigned'", [b.id]);
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([[GRACE.email, `Your driver for ${b.booking_number}`]]);
    for (const text of ['Kofi Mensah', 'LK70 FMX', 'Silver Mercedes-Benz E-Class']) expect(mails[0].body_text).toContain(text);

    const [audit] = await t.db.query<{ action: string; staff_name: string; after: any }>(
      'SELECT action, staff_name, after FROM audit_log WHERE booking_id = $1 AND action LIKE $2', [b.id, 'Driver%']);
    expect(audit).toMatchObject({ action: 'Driver assigned', staff_name: `${ADMIN.name} (${ADMIN.email})`, after: { driver_id: driver.id } });

    // The record changes later; the booking keeps what was true when it was dispatched.
    expect((await save(admin, { ...driver.change, id: driver.id, name: 'Kofi A. Mensah' })).status).toBe(200);
    expect((await save(admin, { ...car.change, id: car.id, colour: 'Black' })).status).toBe(200);
    const kept = (await page(b.booking_number)).desk.driver;
    expect(kept).toEqual(res.body.driver);
    expect(kept).toMatchObject({ name: 'Kofi Mensah', colour: 'Silver' });
    expect((await t.db.query<{ driver_id: number }>('SELECT driver_id FROM bookings WHERE id = $1', [b.id]))[0].driver_id).toBe(driver.id);
    // Put back for the tests below.
    expect((await save(admin, { ...driver.change, id: driver.id })).status).toBe(200);
    expect((await save(admin, { ...car.change, id: car.id })).status).toBe(200);
  });

  describe('refuses a driver or car that may not take the booking, changing nothing and e-mailing no one', () => {
    let b: { id: number; booking_number: string };
    beforeAll(async () => { b = await book(ALBION); });
    const pair = (d: { id: number }, c: { id: number }) => ({ driver_id: d.id, car_id: c.id });

    it("a driver whose licence ends before the pickup date (good through its last day)", async () => {
      const lapsed = await addDriver(ALBION, { name: 'Lena Fischer', licence_expiry: '2030-09-11' });
      const res = await refusedAssign(b.booking_number, b.id, pair(lapsed, car), 'driver_id');
      expect(res.message).toContain('Lena Fischer');
      expect(res.message).toContain('expired');
      expect(res.message).toMatch(/^Lena Fischer's PHV driver licence expired on .*\b11 Sept?\.? 2030, before the pickup on .*\b12 Sept?\.? 2030\.$/);
    });

    it('a car whose MOT, insurance or vehicle licence ends before the pickup date', async () => {
      const mot = await addCar(ALBION, { mot_expiry: '2030-09-01' });
      expect((await refusedAssign(b.booking_number, b.id, pair(driver, mot), 'car_id')).message).toMatch(new RegExp(`^${mot.registration}'s MOT expired on `));
      const insurance = await addCar(ALBION, { insurance_expiry: '2030-08-31' });
      expect((await refusedAssign(b.booking_number, b.id, pair(driver, insurance), 'car_id')).message).toMatch(new RegExp(`^${insurance.registration}'s insurance expired on `));
      const licence = await addCar(ALBION, { licence_expiry: '2030-09-11' });
      expect((await refusedAssign(b.booking_number, b.id, pair(driver, licence), 'car_id')).message).toContain('PHV vehicle licence expired');
    });

    it("another company's car or driver", async () => {
      const metroCar = await addCar(METRO_CARS);
      const carRes = await refusedAssign(b.booking_number, b.id, pair(driver, metroCar), 'car_id');
      expect(carRes.message).toBe(`${metroCar.registration} belongs to ${METRO_CARS}, not ${ALBION}, whose booking this is.`);
      const metroDriver = await addDriver(METRO_CARS, { name: 'Yusuf Ali' });
      const driverRes = await refusedAssign(b.booking_number, b.id, pair(metroDriver, car), 'driver_id');
      expect(driverRes.message).toBe(`Yusuf Ali drives for ${METRO_CARS}, not ${ALBION}, whose booking this is.`);
    });

    it('a car with fewer seats than the booking has passengers', async () => {
      const small = await addCar(ALBION, { passengers: '1' });
      const res = await refusedAssign(b.booking_number, b.id, pair(driver, small), 'car_id');
      expect(res.message).toBe(`${small.registration} takes 1 passenger; this booking is for 2.`);
    });

    it('a driver not active, or a car not in service', async () => {
      const inactive = await addDriver(ALBION, { name: 'Rosa Diaz', active: 'no' });
      expect(inactive.active).toBe(false);
      expect((await refusedAssign(b.booking_number, b.id, pair(inactive, car), 'driver_id')).message).toBe('Rosa Diaz is not active on the record.');
      const offRoad = await addCar(ALBION, { active: 'no' });
      expect((await refusedAssign(b.booking_number, b.id, pair(driver, offRoad), 'car_id')).message).toBe(`${offRoad.registration} is not in service on the record.`);
    });

    it('every reason at once, the first naming the field', async () => {
      const lapsed = await addDriver(ALBION, { name: 'Ivo Petrov', licence_expiry: '2030-01-01', active: 'no' });
      const bad = await addCar(METRO_CARS, { passengers: '1', mot_expiry: '2030-01-01' });
      const res = await refusedAssign(b.booking_number, b.id, pair(lapsed, bad), 'driver_id');
      for (const words of ['Ivo Petrov is not active', "Ivo Petrov's PHV driver licence expired", `belongs to ${METRO_CARS}`, 'MOT expired', 'takes 1 passenger']) {
        expect(res.message).toContain(words);
      }
    });

    it('missing, malformed or unknown ids', async () => {
      expect((await refusedAssign(b.booking_number, b.id, {}, 'driver_id')).message).toBe('Choose a driver from the record.');
      expect((await refusedAssign(b.booking_number, b.id, { driver_id: driver.id }, 'car_id')).message).toBe('Choose a car from the record.');
      await refusedAssign(b.booking_number, b.id, { driver_id: 'x1', car_id: car.id }, 'driver_id');
      await refusedAssign(b.booking_number, b.id, { driver_id: { id: 1 }, car_id: car.id }, 'driver_id');
      // The old free-text form is not a driver on record.
      await refusedAssign(b.booking_number, b.id, { name: 'Dan Price', mobile: '07700 900777', vehicle: 'E-Class', registration: 'LB71 XKE' }, 'driver_id');
      const noDriver = await refusedAssign(b.booking_number, b.id, { driver_id: 999999, car_id: car.id }, 'driver_id');
      expect(noDriver.message).toBe('This driver is not on your record. Reload the list and choose again.');
      const noCar = await refusedAssign(b.booking_number, b.id, { driver_id: driver.id, car_id: 999999 }, 'car_id');
      expect(noCar.message).toBe('This car is not on your record. Reload the list and choose again.');
    });

    it("a company's staff on another company's booking: not found", async () => {
      const metroDriver = await addDriver(METRO_CARS, {}, metro);
      const metroCar = await addCar(METRO_CARS, {}, metro);
      const res = await refusedAssign(b.booking_number, b.id, pair(metroDriver, metroCar), null, 404, metro);
      expect(res.message).toBe('No booking with this reference.');
      await refusedAssign(b.booking_number, b.id, pair(driver, car), null, 404, metro);
    });

    it('and, after all that, takes a driver whose licence ends on the pickup day', async () => {
      const lastDay = await addDriver(ALBION, { name: 'Last Day', licence_expiry: DATE });
      const res = await assign(b.booking_number, pair(lastDay, car));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.driver).toMatchObject({ name: 'Last Day', driver_id: lastDay.id, car_id: car.id });
      // Dispatched again: a new copy, audited as a change, and the passenger told the driver has changed.
      const again = await assign(b.booking_number, pair(driver, car));
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect((await page(b.booking_number)).desk.driver).toEqual(again.body.driver);
      const mails = await t.db.query<{ body_text: string }>(
        "SELECT body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'driver_assigned' ORDER BY id", [b.id]);
      expect(mails).toHaveLength(2);
      expect(mails[1].body_text).toContain('Your driver has changed');
      expect(mails[1].body_text).toContain('Kofi Mensah');
      const audit = await t.db.query<{ action: string; before: any }>(
        "SELECT action, before FROM audit_log WHERE booking_id = $1 AND action LIKE 'Driver%' ORDER BY id", [b.id]);
      expect(audit.map((a) => a.action)).toEqual(['Driver assigned', 'Driver changed']);
      expect(audit[1].before).toMatchObject({ name: 'Last Day' });
    });
  });

  it("a company's staff dispatch their own company's booking only to their own records", async () => {
    const b = await book(METRO_CARS);
    const albionDriver = await addDriver(ALBION);
    const metroDriver = await addDriver(METRO_CARS, { name: 'Metro Dispatch' }, metro);
    const metroCar = await addCar(METRO_CARS, {}, metro);
    // Another company's driver is not on their record at all.
    await refusedAssign(b.booking_number, b.id, { driver_id: albionDriver.id, car_id: metroCar.id }, 'driver_id', 422, metro);
    await refusedAssign(b.booking_number, b.id, { driver_id: metroDriver.id, car_id: car.id }, 'car_id', 422, metro);
    const res = await assign(b.booking_number, { driver_id: metroDriver.id, car_id: metroCar.id }, metro);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.driver).toMatchObject({ name: 'Metro Dispatch', dispatched_by: `${METRO.name} (${METRO.email})` });
    expect((await page(b.booking_number, metro)).desk.driver).toEqual(res.body.driver);
  });

  it('refuses to dispatch a cancelled booking (409), changing nothing', async () => {
    const b = await book(ALBION);
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Plans changed' }, as(admin))).status).toBe(200);
    await refusedAssign(b.booking_number, b.id, { driver_id: driver.id, car_id: car.id }, null, 409);
  });

  it('refuses a car that does not take a wheelchair for a booking that asks for one', async () => {
    const b = await book(ALBION, bookingForm({ wheel_chair: 'yes' }));
    expect((await page(b.booking_number)).desk.needs).toMatchObject({ wheelchair: true, passengers: 2 });
    const res = await refusedAssign(b.booking_number, b.id, { driver_id: driver.id, car_id: car.id }, 'car_id');
    expect(res.message).toBe(`This booking asks for a wheelchair-accessible vehicle and ${car.registration} is not one.`);
    const accessible = await addCar(ALBION, { wheelchair: 'yes', vehicle_type_id: String(typeIds.get('MPV')), passengers: '6' });
    const ok = await assign(b.booking_number, { driver_id: driver.id, car_id: accessible.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.driver.registration).toBe(accessible.registration);
  });
});
