// The admin commands (`npm run admin -- <command>`): the operator's data (settings, companies, fleet, rates, places,
// banned addresses, drivers and cars on record), recent bookings and the mail queue. Run by the command line (../admin.ts) on the database, or
// by the running server through its door (./adminDoor.ts).
import { parseArgs } from 'node:util';
import type { Db } from '../db/index';
import { poundsToPence, penceToPounds } from '../../domain/money';
import {
  addAddress, banAddress, recentBookings, setCompanyActive, setRate, setSetting, unbanAddress, upsertCompany, upsertVehicleType,
} from './operator';
import { addStaff, listStaff, removeStaff, setStaffDbs } from './staff';
import { toCsv } from '../http/csv';
import { REGISTER_COLUMNS, formatDbs, registerRows } from '../../domain/staffRegister';
import { ROLE_LABELS, type StaffRole } from '../../domain/operatorDesk';
import { removeDemoSignIns } from './demoAccounts';
import { DomainError } from '../errors';
import { DEFAULT_PASSWORD_HASH_COST, loadConfig } from '../config';
import { listCars, listDrivers, saveCar, saveDriver } from './fleetRecords';
import { carDocuments, driverDocuments, expiryNotes } from '../../domain/fleetRecords';
import { normalisePhone } from '../../domain/phone';
import { isCalendarDate, ukToday } from '../../domain/ukTime';
import { listAccounts, saveAccount, saveField, setBooker } from '../accounts/store';
import { accountInvoices, issueAccountInvoices, markInvoicePaid } from '../accounts/invoiceRun';
import { invoiceSummary } from '../accounts/routes';
import { monthStart, previousMonth } from '../../domain/accounts';
import { invoiceLabel } from '../payments/invoices';
import { loadSettings } from '../deps';

export const HELP = `Usage: npm run admin -- <command> [options]

  settings                                  list every setting
  set-setting NAME VALUE                    set a setting (e.g. set-setting GRACE_TIME 90)
  companies                                 list operator companies
  add-company --name N [--phone P] [--email E] [--address A]
                                            add a company, or change the one with that name
  disable-company --name N | enable-company --name N
  vehicles                                  list vehicle types
  add-vehicle --name N --seats S --luggage L --hand-luggage H [--image URL] [--order K]
                                            add a vehicle type, or change the one with that name
  rates                                     list every company's rates
  set-rate --company N --vehicle V --base 4.00 --minimum 22.00 [--hourly 35.00] --band 0:2.60 [--band 10:1.85 ...]
                                            what a company charges for a vehicle type (pounds; bands are from-mile:per-mile)
  add-address --address TEXT --lat 51.5 --lon -0.12 [--postcode PC] [--kind airport|station|...]
  banned                                    list banned addresses
  ban-address TEXT [--reason R]             refuse any pickup, drop-off or stop containing TEXT
  unban-address TEXT
  bookings [--limit 20]                     the most recent bookings
  emails [--status pending|sent|failed]     the outgoing mail queue
  retry-emails                              send failed messages again
  staff [--csv]                             the register of the office's staff (who may sign in at /operator), with the
                                            DBS certificate each showed; --csv: the register as CSV
  add-staff --email E --name N --role admin|dispatcher|company [--company NAME] [--password P]
            [--dbs NUMBER --dbs-seen YYYY-MM-DD]
                                            add a member of staff, or change the one with that e-mail; prints a new
                                            password unless --password is given
  staff-dbs --email E --dbs NUMBER --dbs-seen YYYY-MM-DD
                                            record the DBS certificate a member of staff showed and the day it was seen
                                            (both empty: clear it); nothing else of theirs changes
  remove-staff --email E                    stop a member of staff signing in (their sessions end)
  drivers [--company NAME]                  the drivers on record, with their licences and what expires soon
  add-driver --name N --mobile M --licence L --authority A --expiry YYYY-MM-DD --company NAME [--email E] [--inactive]
                                            add a driver, or change the one with that mobile
  cars [--company NAME]                     the cars on record, with their licences, MOT and insurance
  add-car --registration R --make M --model M --colour C --vehicle TYPE --passengers P --suitcases S --licence L
          --licence-expiry D --mot D --insurance D --company NAME [--wheelchair] [--inactive]
                                            add a car, or change the one with that registration
  accounts                                  the corporate accounts: terms, credit limit, what each owes and has booked,
                                            its booking fields and bookers (issue 44)
  add-account --name N --email BILLING --limit POUNDS [--terms DAYS] [--vat GB...] [--address A] [--company NAME]
              [--status active|suspended|closed --reason R]
                                            add an account, or change the one with that name
  account-field --account N --label L [--required] [--options "A,B,C"] [--inactive]
                                            a booking field the account asks for (free text without --options)
  add-booker --account N --email E          a passenger with a sign-in books for the account (remove-booker: no longer)
  invoices [--account N]                    the accounts' invoices: due, overdue or paid
  issue-invoices [--month YYYY-MM]          issue what is missing of a month's invoices now (default: last month)
  invoice-paid INV-000012 --on YYYY-MM-DD   mark an invoice paid (--on "" marks it unpaid)
  remove-demo-accounts                      stop every sign-in that a demo password from README opens (staff are
                                            removed, the demo passenger's account loses its password)
`;

/** A command typed wrongly: its message says how to type it. */
export class UsageError extends Error {}

/** A record's rules refused what was typed: said as the command's usage, naming the field as its option. */
async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) {
      const option: Record<string, string> = {
        licence_number: 'licence', licensing_authority: 'authority', licence_expiry: 'expiry (or --licence-expiry)', company_id: 'company',
        vehicle_type_id: 'vehicle', mot_expiry: 'mot', insurance_expiry: 'insurance', dbs_number: 'dbs', dbs_seen_on: 'dbs-seen',
        credit_limit: 'limit', billing_email: 'email', terms_days: 'terms', vat_number: 'vat', status_reason: 'reason',
      };
      throw new UsageError(err.field ? `--${option[err.field] ?? err.field}: ${err.message}` : err.message);
    }
    throw err;
  }
}

function money(text: string | undefined, name: string): number {
  const p = poundsToPence(text ?? '');
  if (Number.isNaN(p) || p < 0) throw new UsageError(`--${name} must be an amount in pounds, like 12.50`);
  return p;
}

function int(text: string | undefined, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number`);
  return n;
}

function need(value: string | undefined, name: string): string {
  if (!value?.trim()) throw new UsageError(`--${name} is required`);
  return value.trim();
}

function table(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '(none)';
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const widths = cols.map((c) => Math.min(48, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const line = (vals: string[]) => vals.map((v, i) => (v.length > widths[i] ? `${v.slice(0, widths[i] - 1)}…` : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

async function idOf(db: Db, sql: string, name: string, what: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(sql, [name]);
  if (!row) throw new UsageError(`No ${what} called "${name}"`);
  return row.id;
}

/** Runs one admin command; returns what to print. Throws UsageError for bad input. */
export async function runAdmin(db: Db, argv: string[], hashCost = DEFAULT_PASSWORD_HASH_COST): Promise<string> {
  // "--lon -1.54": a negative number is the option's value, not another option.
  const args0 = argv.flatMap((a, i) => (/^-\d/.test(a) && argv[i - 1]?.startsWith('--') ? [] : [
    /^--/.test(a) && /^-\d/.test(argv[i + 1] ?? '') ? `${a}=${argv[i + 1]}` : a,
  ]));
  const { positionals, values } = parseArgs({
    args: args0, allowPositionals: true, strict: true,
    options: {
      name: { type: 'string' }, phone: { type: 'string' }, email: { type: 'string' }, address: { type: 'string' },
      seats: { type: 'string' }, luggage: { type: 'string' }, 'hand-luggage': { type: 'string' }, image: { type: 'string' },
      order: { type: 'string' }, company: { type: 'string' }, vehicle: { type: 'string' }, base: { type: 'string' },
      minimum: { type: 'string' }, hourly: { type: 'string' }, band: { type: 'string', multiple: true },
      lat: { type: 'string' }, lon: { type: 'string' }, postcode: { type: 'string' }, kind: { type: 'string' },
      reason: { type: 'string' }, limit: { type: 'string' }, status: { type: 'string' }, role: { type: 'string' },
      password: { type: 'string' }, mobile: { type: 'string' }, licence: { type: 'string' }, authority: { type: 'string' },
      expiry: { type: 'string' }, inactive: { type: 'boolean' }, registration: { type: 'string' }, make: { type: 'string' },
      model: { type: 'string' }, colour: { type: 'string' }, passengers: { type: 'string' }, suitcases: { type: 'string' },
      'licence-expiry': { type: 'string' }, mot: { type: 'string' }, insurance: { type: 'string' }, wheelchair: { type: 'boolean' },
      dbs: { type: 'string' }, 'dbs-seen': { type: 'string' }, csv: { type: 'boolean' },
      account: { type: 'string' }, terms: { type: 'string' }, vat: { type: 'string' }, label: { type: 'string' }, required: { type: 'boolean' },
      options: { type: 'string' }, month: { type: 'string' }, on: { type: 'string' },
    },
  });
  const [command, ...args] = positionals;
  switch (command) {
    case 'settings':
      return table(await db.query('SELECT setting_name, setting_value FROM settings ORDER BY setting_name'));
    case 'set-setting': {
      if (args.length !== 2) throw new UsageError('set-setting takes a NAME and a VALUE');
      await setSetting(db, args[0], args[1]);
      return `${args[0]} = ${args[1]}`;
    }
    case 'companies':
      return table(await db.query('SELECT id, company_name, contact_phone, contact_email, address, active FROM companies ORDER BY id'));
    case 'add-company': {
      const id = await upsertCompany(db, { company_name: need(values.name, 'name'), contact_phone: values.phone, contact_email: values.email, address: values.address });
      return `Company ${id}: ${values.name}`;
    }
    case 'disable-company':
    case 'enable-company': {
      const ok = await setCompanyActive(db, need(values.name, 'name'), command === 'enable-company');
      if (!ok) throw new UsageError(`No company called "${values.name}"`);
      return `${values.name} ${command === 'enable-company' ? 'enabled' : 'disabled'}`;
    }
    case 'vehicles':
      return table(await db.query('SELECT id, category_name, seats, luggage, hand_luggage, image, sort_order FROM vehicle_types ORDER BY sort_order, id'));
    case 'add-vehicle': {
      const name = need(values.name, 'name');
      const id = await upsertVehicleType(db, {
        category_name: name, seats: int(values.seats, 'seats'), luggage: int(values.luggage, 'luggage'),
        hand_luggage: int(values['hand-luggage'], 'hand-luggage'),
        image: values.image ?? '/storage/vehicles/saloon.svg', sort_order: values.order ? int(values.order, 'order') : 99,
      });
      return `Vehicle type ${id}: ${name}`;
    }
    case 'rates': {
      const rows = await db.query<Record<string, unknown>>(
        `SELECT c.company_name AS company, v.category_name AS vehicle, r.base_fare_pence, r.minimum_fare_pence, r.hourly_rate_pence,
                (SELECT string_agg(b.from_miles || ':' || to_char(b.per_mile_pence / 100.0, 'FM990.00'), ' ' ORDER BY b.from_miles)
                   FROM vehicle_rate_bands b WHERE b.company_id = r.company_id AND b.vehicle_type_id = r.vehicle_type_id) AS bands
           FROM vehicle_rates r JOIN companies c ON c.id = r.company_id JOIN vehicle_types v ON v.id = r.vehicle_type_id
          ORDER BY c.company_name, v.sort_order`);
      return table(rows.map(({ base_fare_pence, minimum_fare_pence, hourly_rate_pence, ...r }) => ({
        ...r, base: penceToPounds(base_fare_pence as number), minimum: penceToPounds(minimum_fare_pence as number),
        hourly: penceToPounds(hourly_rate_pence as number),
      })));
    }
    case 'set-rate': {
      const company = need(values.company, 'company');
      const vehicle = need(values.vehicle, 'vehicle');
      const bands = (values.band ?? []).map((b) => {
        const [from, rate] = b.split(':');
        return { from_miles: int(from, 'band'), per_mile_pence: money(rate, 'band') };
      });
      if (!bands.length) throw new UsageError('set-rate needs at least one --band from-mile:per-mile, starting at 0');
      try {
        await setRate(db, {
          company_id: await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', company, 'company'),
          vehicle_type_id: await idOf(db, 'SELECT id FROM vehicle_types WHERE category_name = $1', vehicle, 'vehicle type'),
          base_fare_pence: money(values.base, 'base'), minimum_fare_pence: money(values.minimum, 'minimum'),
          hourly_rate_pence: values.hourly ? money(values.hourly, 'hourly') : 0, bands,
        });
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError((err as Error).message);
      }
      return `Rate set: ${company}, ${vehicle}`;
    }
    case 'add-address': {
      const lat = Number(values.lat), lon = Number(values.lon);
      if (!(lat >= 49 && lat <= 61 && lon >= -9 && lon <= 2)) throw new UsageError('--lat and --lon must be a place in the UK');
      const id = await addAddress(db, { address: need(values.address, 'address'), postcode: values.postcode, lat, lon, kind: values.kind });
      return `Address ${id}: ${values.address}`;
    }
    case 'banned':
      return table(await db.query('SELECT pattern, reason, created_at FROM banned_addresses ORDER BY pattern'));
    case 'ban-address':
      if (!args[0]) throw new UsageError('ban-address takes the TEXT to refuse');
      await banAddress(db, args.join(' '), values.reason ?? '');
      return `Banned: ${args.join(' ')}`;
    case 'unban-address':
      if (!(await unbanAddress(db, args.join(' ')))) throw new UsageError(`"${args.join(' ')}" is not banned`);
      return `No longer banned: ${args.join(' ')}`;
    case 'bookings':
      return table(await recentBookings(db, values.limit ? int(values.limit, 'limit') : 20));
    case 'emails':
      return table(await db.query(
        `SELECT id, kind, to_address, subject, status, attempts, last_error FROM outbound_emails
          WHERE $1::text IS NULL OR status = $1 ORDER BY id DESC LIMIT 50`, [values.status ?? null]));
    case 'retry-emails': {
      // Reset-code messages lose their body when they fail (it held the code): the passenger asks for a new code instead.
      const rows = await db.query(
        "UPDATE outbound_emails SET status = 'pending', attempts = 0, next_attempt_at = now() WHERE status = 'failed' AND NOT erase_after_send RETURNING id");
      return `${rows.length} message(s) will be sent again by the running server (failed reset codes are not: ask for a new code)`;
    }
    case 'staff': {
      const staff = await listStaff(db);
      if (values.csv) return toCsv(registerRows(staff, (role) => ROLE_LABELS[role as StaffRole] ?? role), [...REGISTER_COLUMNS]).replace(/^\uFEFF/, '').trimEnd();
      return table(staff.map(({ id, email, name, role, company_name, active, created_at, dbs_number, dbs_seen_on }) => ({
        id, email, name, role, company: company_name ?? '', active, created_at, dbs: formatDbs(dbs_number), dbs_seen: dbs_seen_on ?? '',
      })));
    }
    case 'staff-dbs': {
      const email = need(values.email, 'email');
      const done = await asUsage(() => setStaffDbs(db, email, { dbs_number: values.dbs ?? '', dbs_seen_on: values['dbs-seen'] ?? '' }));
      if (!done) throw new UsageError(`No staff with the e-mail "${email}"`);
      return done.after.dbs_number ? `${done.name}: DBS certificate ${formatDbs(done.after.dbs_number)} seen on ${done.after.dbs_seen_on}` : `${done.name}: DBS record cleared`;
    }
    case 'add-staff': {
      try {
        const dbs = values.dbs !== undefined || values['dbs-seen'] !== undefined ? { dbs_number: values.dbs, dbs_seen_on: values['dbs-seen'] } : undefined;
        const { password } = await addStaff(db, {
          email: need(values.email, 'email'), name: need(values.name, 'name'), role: need(values.role, 'role'),
          companyName: values.company, password: values.password, dbs,
        }, hashCost);
        return values.password ? `Staff ${values.email} (${values.role}) can sign in at /operator`
          : `Staff ${values.email} (${values.role}) can sign in at /operator with this password, shown once: ${password}`;
      } catch (err) {
        if (err instanceof DomainError) {
          const option = err.field === 'dbs_number' ? '--dbs: ' : err.field === 'dbs_seen_on' ? '--dbs-seen: ' : '';
          throw new UsageError(`${option}${err.message}`);
        }
        throw err;
      }
    }
    case 'remove-staff':
      if (!(await removeStaff(db, need(values.email, 'email')))) throw new UsageError(`No staff with the e-mail "${values.email}"`);
      return `${values.email} can no longer sign in`;
    case 'drivers': {
      const scope = values.company ? await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', values.company, 'company') : null;
      const today = ukToday();
      return table((await listDrivers(db, scope)).map((d) => ({
        id: d.id, name: d.name, mobile: d.mobile, licence: `${d.licence_number} (${d.licensing_authority})`, expires: d.licence_expiry,
        company: d.company_name, active: d.active, notes: expiryNotes(driverDocuments(d), today).map((n) => n.text).join('; '),
      })));
    }
    case 'add-driver': {
      const company = await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', need(values.company, 'company'), 'company');
      const [existing] = await db.query<{ id: number }>('SELECT id FROM drivers WHERE mobile = $1', [normalisePhone(values.mobile ?? '') ?? '']);
      const saved = await asUsage(() => saveDriver(db, null, existing?.id ?? null, {
        name: values.name, mobile: values.mobile, email: values.email ?? '', licence_number: values.licence, licensing_authority: values.authority,
        licence_expiry: values.expiry, company_id: String(company), active: values.inactive ? 'no' : 'yes',
      }));
      return `Driver ${saved.id}: ${saved.driver.name}, ${saved.driver.mobile}${existing ? ' (changed)' : ''}`;
    }
    case 'cars': {
      const scope = values.company ? await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', values.company, 'company') : null;
      const today = ukToday();
      return table((await listCars(db, scope)).map((c) => ({
        id: c.id, registration: c.registration, car: `${c.colour} ${c.make} ${c.model}`, type: c.category_name, passengers: c.passengers,
        wheelchair: c.wheelchair, licence: c.licence_number, company: c.company_name, active: c.active,
        notes: expiryNotes(carDocuments(c), today).map((n) => n.text).join('; '),
      })));
    }
    case 'add-car': {
      const company = await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', need(values.company, 'company'), 'company');
      const type = await idOf(db, 'SELECT id FROM vehicle_types WHERE category_name = $1', need(values.vehicle, 'vehicle'), 'vehicle type');
      const plate = (values.registration ?? '').replace(/\s+/g, '').toUpperCase();
      const [existing] = await db.query<{ id: number }>('SELECT id FROM cars WHERE plate_key = $1', [plate]);
      const saved = await asUsage(() => saveCar(db, null, existing?.id ?? null, {
        registration: values.registration, make: values.make, model: values.model, colour: values.colour, vehicle_type_id: String(type),
        passengers: values.passengers, suitcases: values.suitcases, wheelchair: values.wheelchair ? 'yes' : 'no', licence_number: values.licence,
        licence_expiry: values['licence-expiry'], mot_expiry: values.mot, insurance_expiry: values.insurance, company_id: String(company),
        active: values.inactive ? 'no' : 'yes',
      }));
      return `Car ${saved.id}: ${saved.car.registration}, ${saved.car.colour} ${saved.car.make} ${saved.car.model}${existing ? ' (changed)' : ''}`;
    }
    case 'accounts':
      return table((await listAccounts(db, null)).map((a) => ({
        id: a.id, name: a.name, status: a.status + (a.status_reason ? ` (${a.status_reason})` : ''), billing: a.billing_email, terms: `${a.terms_days} days`,
        limit: penceToPounds(a.credit_limit_pence), owed_and_booked: penceToPounds(a.exposure_pence),
        fields: a.fields.filter((f) => f.active).map((f) => `${f.label}${f.required ? '*' : ''}${f.options.length ? ` [${f.options.join('|')}]` : ''}`).join(', '),
        bookers: a.bookers.map((b) => b.email).join(', '),
      })));
    case 'add-account': {
      const name = need(values.name, 'name');
      const company = values.company ? await idOf(db, 'SELECT id FROM companies WHERE company_name = $1', values.company, 'company') : null;
      const [existing] = await db.query<{
        id: number; terms_days: number; billing_email: string; credit_limit_pence: number; vat_number: string; address: string;
        company_id: number | null; status: string; status_reason: string;
      }>('SELECT id, terms_days, billing_email, credit_limit_pence, vat_number, address, company_id, status, status_reason FROM accounts WHERE lower(name) = lower($1)', [name]);
      // What is not given stays as it is (a changed limit leaves a suspended account suspended).
      const saved = await asUsage(() => saveAccount(db, null, existing?.id ?? null, {
        name, billing_email: values.email ?? existing?.billing_email, credit_limit: values.limit ?? (existing ? penceToPounds(existing.credit_limit_pence) : undefined),
        terms_days: values.terms ?? String(existing?.terms_days ?? 30), vat_number: values.vat ?? existing?.vat_number ?? '',
        address: values.address ?? existing?.address ?? '',
        company_id: company !== null ? String(company) : existing?.company_id ? String(existing.company_id) : '',
        status: values.status ?? existing?.status ?? 'active', status_reason: values.reason ?? existing?.status_reason ?? '',
      }));
      return `Account ${saved.id}: ${saved.account.name}, limit £${penceToPounds(saved.account.credit_limit_pence)}${existing ? ' (changed)' : ''}`;
    }
    case 'account-field': {
      const account = await idOf(db, 'SELECT id FROM accounts WHERE lower(name) = lower($1)', need(values.account, 'account'), 'account');
      const label = need(values.label, 'label');
      const [existing] = await db.query<{ id: number }>('SELECT id FROM account_fields WHERE account_id = $1 AND lower(label) = lower($2)', [account, label]);
      const saved = await asUsage(() => db.transaction((tx) => saveField(tx, null, account, existing?.id ?? null, {
        label, required: values.required ? 'yes' : 'no', options: values.options ?? '', active: values.inactive ? 'no' : 'yes',
      })));
      return `${saved.account.name}: ${saved.field.label}${saved.field.required ? ' (required)' : ''}${existing ? ' (changed)' : ''}`;
    }
    case 'add-booker':
    case 'remove-booker': {
      const account = await idOf(db, 'SELECT id FROM accounts WHERE lower(name) = lower($1)', need(values.account, 'account'), 'account');
      const join = command === 'add-booker';
      const done = await asUsage(() => setBooker(db, null, account, need(values.email, 'email'), join));
      return `${done.passenger.name} ${join ? 'now books for' : 'no longer books for'} ${done.account.name}`;
    }
    case 'invoices': {
      const account = values.account ? await idOf(db, 'SELECT id FROM accounts WHERE lower(name) = lower($1)', values.account, 'account') : undefined;
      const today = ukToday();
      return table((await accountInvoices(db, { accountId: account })).map((i) => {
        const s = invoiceSummary(i, today);
        return { invoice: s.label, account: s.account_name, month: s.month, issued: s.issued_on, due: s.due_on, status: s.status_label,
          paid: s.paid_on ?? '', journeys: s.journeys, total: s.gross, amount_due: s.amount_due };
      }));
    }
    case 'issue-invoices': {
      const today = ukToday();
      const periodStart = values.month ? monthStart(values.month) : previousMonth(today).start;
      if (!periodStart) throw new UsageError('--month must be a month, like 2026-10');
      if (periodStart >= `${today.slice(0, 7)}-01`) throw new UsageError('--month: a month is invoiced once it is over');
      const settings = await loadSettings(db);
      const issued = await issueAccountInvoices(db, { periodStart, now: new Date(), settings, siteUrl: loadConfig().siteUrl });
      return issued.length ? `Issued ${issued.map((n) => invoiceLabel(n)).join(', ')}` : 'Nothing to invoice: every finished journey of that month is invoiced already.';
    }
    case 'invoice-paid': {
      const doc = /^INV-(\d{1,9})$/i.exec(args[0] ?? '');
      if (!doc) throw new UsageError('Name the invoice, like invoice-paid INV-000012 --on 2026-11-30');
      if (values.on === undefined) throw new UsageError('Say the day it was paid: --on 2026-11-30 (--on "" marks it unpaid)');
      const on = values.on.trim();
      if (on && !isCalendarDate(on)) throw new UsageError('--on must be a date, like 2026-11-30');
      if (on && on > ukToday()) throw new UsageError('--on: the day it was paid cannot be in the future');
      const before = await db.transaction((tx) => markInvoicePaid(tx, Number(doc[1]), on || null, 'npm run admin', null));
      if (!before) throw new UsageError(`No account invoice ${args[0]}`);
      return `${invoiceLabel(before.number)} ${on ? `marked paid on ${on}` : 'marked unpaid'}`;
    }
    case 'remove-demo-accounts': {
      const removed = await removeDemoSignIns(db);
      if (!removed.length) return 'No one signs in with a demo password from README.';
      return removed.map((r) => (r.who === 'staff'
        ? `${r.email} (staff) can no longer sign in`
        : `${r.email} (the demo corporate passenger) can no longer sign in; its bookings stay`)).join('\n');
    }
    case undefined:
    case 'help':
      return HELP;
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
  }
}
