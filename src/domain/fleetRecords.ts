// Drivers and cars on record (issue 41 §1): the rules of their forms, for the console's forms and the server alike,
// and the one rule of who may drive which booking (`dispatchProblems`), which the console asks before it offers a
// driver and car and the server enforces when it assigns them. A licensed operator records the driver and vehicle of
// every booking (London: regulation 11 of the PHV Operators' Licences Regulations 2000); a booking keeps a copy of what
// was true when it was dispatched (`dispatchCopy`).
import { normalisePhone } from './phone';
import { emailProblem } from './fields';
import { formatDateLong, isCalendarDate } from './ukTime';
import type { FormErrors } from './operatorDesk';

/** A UK mobile as stored (E.164): 071-075 and 077-079, or the Isle of Man's 07624; not a landline, 070 or a pager. */
export const isUkMobile = (e164: string | null): boolean => e164 !== null && /^\+447(?:[1-57-9]\d{8}|624\d{6})$/.test(e164);

/** Days before a document's expiry when the record pages flag it. */
export const EXPIRY_WARNING_DAYS = 30;

export interface DriverRecordInput {
  name: string; mobile: string; email: string; licence_number: string; licensing_authority: string;
  licence_expiry: string; company_id: string; active: string;
}

export interface CarRecordInput {
  registration: string; make: string; model: string; colour: string; vehicle_type_id: string; passengers: string;
  suitcases: string; wheelchair: string; licence_number: string; licence_expiry: string; mot_expiry: string;
  insurance_expiry: string; company_id: string; active: string;
}

type Loose<T> = Partial<Record<keyof T, unknown>>;
const textOf = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
/** Yes as the form checks it (isYesOrNo): true, or 'yes' or 'true' however spaced. */
const isYes = (v: unknown) => v === true || ['yes', 'true'].includes(textOf(v));
const isYesOrNo = (v: unknown) => v === undefined || v === true || v === false || ['yes', 'no', 'true', 'false'].includes(textOf(v));

/** A registration as the plate shows it: capitals, and the space where DVLA's formats put it (LB19 XKE, A123 BCD). */
export function normaliseRegistration(typed: string): string {
  const compact = typed.replace(/\s+/g, '').toUpperCase();
  const current = /^([A-Z]{2}\d{2})([A-Z]{3})$/.exec(compact);
  if (current) return `${current[1]} ${current[2]}`;
  const prefix = /^([A-Z]\d{1,3})([A-Z]{3})$/.exec(compact);
  if (prefix) return `${prefix[1]} ${prefix[2]}`;
  const suffix = /^([A-Z]{3})(\d{1,3}[A-Z])$/.exec(compact);
  if (suffix) return `${suffix[1]} ${suffix[2]}`;
  return typed.trim().toUpperCase().replace(/\s+/g, ' ');
}

/** Letters and digits, 2 to 8 of them, however spaced. */
export const isPlate = (typed: string): boolean => /^[A-Z0-9]{2,8}$/i.test(typed.replace(/\s+/g, ''));

function dateProblem(value: string, what: string): string | undefined {
  if (!value) return `Enter the ${what}, as a date.`;
  return isCalendarDate(value) ? undefined : `Enter the ${what} as a date, e.g. 2027-03-31.`;
}

function textProblem(value: string, what: string, max: number, required = true): string | undefined {
  if (!value) return required ? `Enter the ${what}.` : undefined;
  return value.length > max ? `The ${what} is at most ${max} characters.` : undefined;
}

function set<T>(errors: FormErrors<T>, field: keyof T, message: string | undefined): void {
  if (message) errors[field] = message;
}

/** The driver form's rules: field -> message. */
export function driverRecordErrors(d: Loose<DriverRecordInput>): FormErrors<DriverRecordInput> {
  const errors: FormErrors<DriverRecordInput> = {};
  set(errors, 'name', textProblem(textOf(d.name), "driver's name", 80));
  const mobile = textOf(d.mobile);
  if (!mobile) errors.mobile = "Enter the driver's mobile number.";
  else if (!normalisePhone(mobile)) errors.mobile = 'Enter a UK mobile number, e.g. 07700 900123.';
  else if (!isUkMobile(normalisePhone(mobile))) errors.mobile = 'This is not a UK mobile number: the job and sign-in codes are sent to it by SMS. Enter one starting 07.';
  set(errors, 'email', emailProblem(textOf(d.email), false));
  set(errors, 'licence_number', textProblem(textOf(d.licence_number), 'PHV driver licence number', 30));
  set(errors, 'licensing_authority', textProblem(textOf(d.licensing_authority), 'licensing authority (e.g. Transport for London)', 80));
  set(errors, 'licence_expiry', dateProblem(textOf(d.licence_expiry), 'licence expiry'));
  if (!/^\d{1,9}$/.test(textOf(d.company_id))) errors.company_id = 'Choose the company the driver works for.';
  if (!isYesOrNo(d.active)) errors.active = 'Choose whether the driver is active.';
  return errors;
}

/** The car form's rules: field -> message. */
export function carRecordErrors(c: Loose<CarRecordInput>): FormErrors<CarRecordInput> {
  const errors: FormErrors<CarRecordInput> = {};
  const registration = textOf(c.registration);
  if (!registration) errors.registration = 'Enter the registration.';
  else if (!isPlate(registration)) errors.registration = 'Enter the registration as on the plate, e.g. LB19 XKE.';
  set(errors, 'make', textProblem(textOf(c.make), 'make, e.g. Mercedes-Benz', 40));
  set(errors, 'model', textProblem(textOf(c.model), 'model, e.g. E-Class', 40));
  set(errors, 'colour', textProblem(textOf(c.colour), 'colour, e.g. Black', 30));
  if (!/^\d{1,9}$/.test(textOf(c.vehicle_type_id))) errors.vehicle_type_id = 'Choose the vehicle type from the fleet.';
  const count = (field: 'passengers' | 'suitcases', label: string, min: number) => {
    const v = textOf(c[field]);
    if (!/^\d{1,2}$/.test(v) || Number(v) < min || Number(v) > 16) errors[field] = `${label}: a whole number from ${min} to 16.`;
  };
  count('passengers', 'Passengers', 1);
  count('suitcases', 'Suitcases', 0);
  if (!isYesOrNo(c.wheelchair)) errors.wheelchair = 'Choose whether the car takes a wheelchair.';
  set(errors, 'licence_number', textProblem(textOf(c.licence_number), 'PHV vehicle licence number', 30));
  set(errors, 'licence_expiry', dateProblem(textOf(c.licence_expiry), 'vehicle licence expiry'));
  set(errors, 'mot_expiry', dateProblem(textOf(c.mot_expiry), 'MOT expiry'));
  set(errors, 'insurance_expiry', dateProblem(textOf(c.insurance_expiry), 'insurance expiry'));
  if (!/^\d{1,9}$/.test(textOf(c.company_id))) errors.company_id = 'Choose the company the car belongs to.';
  if (!isYesOrNo(c.active)) errors.active = 'Choose whether the car is in service.';
  return errors;
}

/** A driver as the record keeps it (the form's values, checked by driverRecordErrors first). */
export interface DriverRecord {
  name: string; mobile: string; email: string; licence_number: string; licensing_authority: string; licence_expiry: string;
  company_id: number; active: boolean;
}
export interface CarRecord {
  registration: string; make: string; model: string; colour: string; vehicle_type_id: number; passengers: number; suitcases: number;
  wheelchair: boolean; licence_number: string; licence_expiry: string; mot_expiry: string; insurance_expiry: string;
  company_id: number; active: boolean;
}

/** The record a checked driver form makes: mobile in E.164, licence number in capitals, active unless said otherwise. */
export function driverRecord(d: Loose<DriverRecordInput>): DriverRecord {
  return {
    name: textOf(d.name), mobile: normalisePhone(textOf(d.mobile))!, email: textOf(d.email), licence_number: textOf(d.licence_number).toUpperCase(),
    licensing_authority: textOf(d.licensing_authority), licence_expiry: textOf(d.licence_expiry), company_id: Number(textOf(d.company_id)),
    active: d.active === undefined || isYes(d.active),
  };
}

export function carRecord(c: Loose<CarRecordInput>): CarRecord {
  return {
    registration: normaliseRegistration(textOf(c.registration)), make: textOf(c.make), model: textOf(c.model), colour: textOf(c.colour),
    vehicle_type_id: Number(textOf(c.vehicle_type_id)), passengers: Number(textOf(c.passengers)), suitcases: Number(textOf(c.suitcases)),
    wheelchair: isYes(c.wheelchair), licence_number: textOf(c.licence_number).toUpperCase(), licence_expiry: textOf(c.licence_expiry),
    mot_expiry: textOf(c.mot_expiry), insurance_expiry: textOf(c.insurance_expiry), company_id: Number(textOf(c.company_id)),
    active: c.active === undefined || isYes(c.active),
  };
}

/** Whole days from `today` to `date` (both YYYY-MM-DD): negative once it has passed. */
export function daysUntil(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** How a document stands today: 'expired' after its expiry day, 'soon' within EXPIRY_WARNING_DAYS, else null. */
export function expiryFlag(expiry: string, today: string): 'expired' | 'soon' | null {
  const days = daysUntil(expiry, today);
  if (days < 0) return 'expired';
  return days <= EXPIRY_WARNING_DAYS ? 'soon' : null;
}

/** The documents of a driver and of a car, with their words, for the flags and the refusals alike. */
export const driverDocuments = (d: Pick<DriverRecord, 'licence_expiry'>) => [{ what: 'PHV driver licence', expiry: d.licence_expiry }];
export const carDocuments = (c: Pick<CarRecord, 'licence_expiry' | 'mot_expiry' | 'insurance_expiry'>) => [
  { what: 'PHV vehicle licence', expiry: c.licence_expiry }, { what: 'MOT', expiry: c.mot_expiry }, { what: 'insurance', expiry: c.insurance_expiry },
];

/** What the record pages flag: each document expired or expiring within EXPIRY_WARNING_DAYS, in words. */
export function expiryNotes(documents: { what: string; expiry: string }[], today: string): { flag: 'expired' | 'soon'; text: string }[] {
  return documents.flatMap(({ what, expiry }) => {
    const flag = expiryFlag(expiry, today);
    if (!flag) return [];
    const days = daysUntil(expiry, today);
    return [{ flag, text: flag === 'expired' ? `${what} expired ${formatDateLong(expiry)}` : `${what} expires ${days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`} (${formatDateLong(expiry)})` }];
  });
}

/** What a booking asks of its driver and car. */
export interface DispatchNeeds { company_id: number; company_name: string; pickup_date: string; passengers: number; wheelchair: boolean }
export interface DispatchDriver { name: string; company_id: number; company_name: string; active: boolean; licence_expiry: string }
export interface DispatchCar {
  registration: string; company_id: number; company_name: string; active: boolean; passengers: number; wheelchair: boolean;
  licence_expiry: string; mot_expiry: string; insurance_expiry: string;
}

/** One reason a driver and car may not take a booking: the field of the assign form it is about, and its words. */
export interface DispatchProblem { field: 'driver_id' | 'car_id'; message: string }

/**
 * Why this driver and car may not take this booking, each in words that name what is wrong; none when they may. A
 * document is good through its expiry day: one that ends before the pickup date refuses the dispatch.
 */
export function dispatchProblems(needs: DispatchNeeds, driver: DispatchDriver, car: DispatchCar): DispatchProblem[] {
  const problems: DispatchProblem[] = [];
  const onDriver = (message: string) => problems.push({ field: 'driver_id', message });
  const onCar = (message: string) => problems.push({ field: 'car_id', message });
  const on = formatDateLong(needs.pickup_date);
  if (!driver.active) onDriver(`${driver.name} is not active on the record.`);
  if (driver.company_id !== needs.company_id) onDriver(`${driver.name} drives for ${driver.company_name}, not ${needs.company_name}, whose booking this is.`);
  for (const d of driverDocuments(driver)) {
    if (d.expiry < needs.pickup_date) onDriver(`${driver.name}'s ${d.what} expired on ${formatDateLong(d.expiry)}, before the pickup on ${on}.`);
  }
  if (!car.active) onCar(`${car.registration} is not in service on the record.`);
  if (car.company_id !== needs.company_id) onCar(`${car.registration} belongs to ${car.company_name}, not ${needs.company_name}, whose booking this is.`);
  for (const d of carDocuments(car)) {
    if (d.expiry < needs.pickup_date) onCar(`${car.registration}'s ${d.what} expired on ${formatDateLong(d.expiry)}, before the pickup on ${on}.`);
  }
  if (needs.wheelchair && !car.wheelchair) onCar(`This booking asks for a wheelchair-accessible vehicle and ${car.registration} is not one.`);
  if (car.passengers < needs.passengers) {
    onCar(`${car.registration} takes ${car.passengers} passenger${car.passengers === 1 ? '' : 's'}; this booking is for ${needs.passengers}.`);
  }
  return problems;
}

/** The assign form: a driver and a car from the record. */
export interface AssignInput { driver_id: string; car_id: string }

export function assignErrors(a: Loose<AssignInput>): FormErrors<AssignInput> {
  const errors: FormErrors<AssignInput> = {};
  if (!/^\d{1,9}$/.test(textOf(a.driver_id))) errors.driver_id = 'Choose a driver from the record.';
  if (!/^\d{1,9}$/.test(textOf(a.car_id))) errors.car_id = 'Choose a car from the record.';
  return errors;
}

/** What a booking keeps of its dispatch, whatever the record says later (issue 41 §1). */
export interface DispatchCopy {
  name: string; mobile: string; vehicle: string; registration: string;
  driver_id: number; car_id: number; licence_number: string; licensing_authority: string; colour: string;
  vehicle_licence_number: string; dispatched_by: string; dispatched_at: string;
}

export function dispatchCopy(
  driver: DriverRecord & { id: number }, car: CarRecord & { id: number }, by: string, at: Date,
): DispatchCopy {
  return {
    name: driver.name, mobile: driver.mobile, vehicle: `${car.make} ${car.model}`, registration: car.registration,
    driver_id: driver.id, car_id: car.id, licence_number: driver.licence_number, licensing_authority: driver.licensing_authority,
    colour: car.colour, vehicle_licence_number: car.licence_number, dispatched_by: by, dispatched_at: at.toISOString(),
  };
}
