// The bodies the office's console sends (src/server/operator/routes.ts), typed once before anything reads them
// (issue 39): a number, a list, an object or null where text is expected is a 422 naming its field, never a 500. They
// check types only. What a value must say (a reason, a mobile number, a plate, an amount in pounds, a setting of its
// kind) is the forms' own rules, with their words: ./operatorDesk.ts (cancelErrors), ./fleetRecords.ts, which the console's
// forms ask first, and the operator data's checks on the server. A form's schema names exactly its fields (`FieldsOf`),
// so the two cannot drift apart.
import {
  array, boolean, dynamic, enums, literal, number, optional, string, type, union, type Struct,
} from 'superstruct';
import type { CancelInput } from './operatorDesk';
import type { DataChange } from './operatorData';
import type { AssignInput, CarRecordInput, DriverRecordInput } from './fleetRecords';
import type { AccountInput, FieldInput } from './accounts';

/** Text, or the field left out (the form's rules then ask for it in their own words). */
const text = optional(string());
/** A number as a form types it (text) or as another client sends it, or left out. */
const numeric = optional(union([string(), number()]));
/** Yes or no as a checkbox sends it (true, false) or a form's radio ('yes', 'no'), or left out. */
const yesNo = optional(union([boolean(), string()]));

/** POST /operator/session. */
export const SignInBody = type({ email: text, password: text });

/** Each field of a form, and no other. */
type FieldsOf<T> = Record<keyof T, Struct<string | undefined, null>>;

/** POST /operator/bookings/{reference}/driver: a driver and a car from the record (issue 41). */
export const AssignBody = type({ driver_id: numeric, car_id: numeric } satisfies Record<keyof AssignInput, Struct<any, any>>);

/** POST /operator/bookings/{reference}/cancel ('yes' or 'no' to a refund is the form's rule, in its words). */
export const CancelBody = type({ reason: text, refund: text, refund_amount: text } satisfies FieldsOf<CancelInput>);

type Kind = DataChange['kind'];

/** Each change of the operator data (POST /operator/data), by its kind (each of its own shape: DataChangeBody is the union). */
const CHANGES: Record<Kind, Struct<any, any>> = {
  setting: type({ kind: literal('setting'), name: text, value: text }),
  company: type({ kind: literal('company'), company_name: text, contact_phone: text, contact_email: text, address: text }),
  companyActive: type({ kind: literal('companyActive'), company_name: text, active: boolean() }),
  vehicle: type({ kind: literal('vehicle'), category_name: text, seats: numeric, luggage: numeric, hand_luggage: numeric, sort_order: numeric }),
  rate: type({
    kind: literal('rate'), company_id: numeric, vehicle_type_id: numeric, base: numeric, minimum: numeric, hourly: numeric,
    bands: optional(array(type({ from_miles: numeric, per_mile: numeric }))),
  }),
  address: type({ kind: literal('address'), address: text, postcode: text, lat: numeric, lon: numeric, place_kind: text }),
  ban: type({ kind: literal('ban'), pattern: text, reason: text }),
  unban: type({ kind: literal('unban'), pattern: text }),
  addStaff: type({ kind: literal('addStaff'), email: text, name: text, role: text, company: text, dbs_number: text, dbs_seen_on: text }),
  staffDbs: type({ kind: literal('staffDbs'), email: text, dbs_number: text, dbs_seen_on: text }),
  removeStaff: type({ kind: literal('removeStaff'), email: text }),
  driver: type({
    kind: literal('driver'), id: numeric, name: text, mobile: text, email: text, licence_number: text, licensing_authority: text,
    licence_expiry: text, company_id: numeric, active: yesNo,
  } satisfies Record<keyof DriverRecordInput | 'kind' | 'id', Struct<any, any>>),
  car: type({
    kind: literal('car'), id: numeric, registration: text, make: text, model: text, colour: text, vehicle_type_id: numeric, passengers: numeric,
    suitcases: numeric, wheelchair: yesNo, licence_number: text, licence_expiry: text, mot_expiry: text, insurance_expiry: text,
    company_id: numeric, active: yesNo,
  } satisfies Record<keyof CarRecordInput | 'kind' | 'id', Struct<any, any>>),
};

export const DATA_CHANGE_KINDS = Object.keys(CHANGES) as Kind[];

/** A change's own kind, when it is one (a name such as 'toString' is none). */
const kindOf = (v: unknown): Kind | null => {
  const kind = (v as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(CHANGES, kind) ? kind as Kind : null;
};

/** One change as the console sends it: checked by its kind's schema, so a failure names the change's own field. */
export const DataChangeBody = dynamic((v) => {
  const kind = kindOf(v);
  return kind ? CHANGES[kind] : type({ kind: enums(DATA_CHANGE_KINDS) });
}) as unknown as Struct<DataChange, null>;

/** The body of POST /operator/data: the change, checked apart so its fields are named as the forms name them. */
export const DataRequest = type({ change: type({}) });

/** POST /operator/accounts: a corporate account, new or (with `id`) changed (issue 44; its rules: ./accounts.ts). */
export const AccountBody = type({
  id: numeric, name: text, address: text, billing_email: text, vat_number: text, terms_days: numeric, credit_limit: numeric, status: text,
  status_reason: text, company_id: numeric,
} satisfies Record<keyof AccountInput | 'id', Struct<any, any>>);
/** POST /operator/accounts/{id}/fields: a booking field of the account, new or (with `id`) changed. */
export const AccountFieldBody = type({ id: numeric, label: text, required: yesNo, options: text, active: yesNo } satisfies Record<keyof FieldInput | 'id', Struct<any, any>>);
/** POST /operator/accounts/{id}/bookers: a passenger with a sign-in joins the account, or (join false) leaves it. */
export const BookerBody = type({ email: text, join: optional(boolean()) });
/** POST /operator/invoices/run: the month (2026-10; the month before today's when left out), one account or all. */
export const InvoiceRunBody = type({ month: text, account_id: numeric });
/** POST /operator/invoices/{number}/paid: the day it was paid (a date), or null to mark it unpaid again. */
export const InvoicePaidBody = type({ paid_on: optional(union([string(), literal(null)])) });
/** POST /operator/bookings/{reference}/charge: what an account's finished journey is charged, and why (issue 44). */
export const ChargeBody = type({ amount: numeric, reason: text });
