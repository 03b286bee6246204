// Every table that holds a passenger's personal data, and what to do with each (issue 43 §4, decision 60): ONE list,
// read by the daily retention job, by the erase on request, by the unpaid-booking clean-up (all through
// ./anonymise.ts) and by the export (./requests.ts). A table is a step of four parts, each optional but `find`:
//
//   find       the rows held about a person (a Subject: an e-mail address, its bookings, passenger rows and phones),
//              for the export: whole rows, a secret (a hash) said to exist and never shown (`withheld`);
//   bookings   makes these bookings' rows anonymous (the records time is up, an unpaid booking expired, an erase);
//   passengers makes these passenger rows anonymous (a guest none of whose bookings is kept; an account erased);
//   address    removes what is held by the address alone, apart from bookings and passengers (an erase).
//
// What stays is the booking's non-personal record: dates, prices, payments, vehicle type, company, status, the driver
// and car it was dispatched with (staff records, not the passenger's), each address's postcode district. Invoices are
// kept whole until their own time (./anonymise.ts anonymiseInvoices).
//
// A NEW TABLE WITH PERSONAL DATA gets a step here (see the place marked below): the export test searches every text
// and jsonb column of the database for a person's e-mail, names and phones, and fails on a row no step exports
// (test/api/privacy-requests.test.ts).
import type { Queryable } from '../db/index';
import { mentioning, districtOrNull, nonPersonalJson, postcodeDistrict } from './redact';

/** The person a request is about: the address as typed, and what the database links to it. */
export interface Subject {
  email: string;
  /** Every booking of the address: its passenger's e-mail, or made by a passenger row with it. */
  bookingIds: number[];
  /** Every passenger row with the address (guests' contact records and an account). */
  passengerIds: number[];
  /** The phone numbers on those, as typed and as stored for texts (E.164). */
  phones: string[];
  /** The allowance keys of the address (../limits.ts addressKey). */
  allowanceKeys: string[];
}

export type Row = Record<string, unknown>;

export interface PersonalTable {
  table: string;
  /** The export's heading for it. */
  title: string;
  /** Its personal data, in words (the export page says it). */
  holds: string;
  find(q: Queryable, s: Subject): Promise<Row[]>;
  bookings?(tx: Queryable, ids: number[]): Promise<unknown>;
  passengers?(tx: Queryable, ids: number[]): Promise<unknown>;
  address?(tx: Queryable, s: Subject): Promise<unknown>;
}

/** A list of ids as one JSON parameter (PGlite and PostgreSQL alike). */
const json = (v: unknown) => JSON.stringify(v);
const inIds = (param: string) => `IN (SELECT value::int FROM json_array_elements_text(${param}::json))`;
const inTexts = (param: string) => `IN (SELECT value FROM json_array_elements_text(${param}::json))`;

/** Rows as the export gives them: `secrets` replaced by whether they are there, named in `withheld`. */
async function rows(q: Queryable, sql: string, params: unknown[], secrets: string[] = []): Promise<Row[]> {
  const found = await q.query<Row>(sql, params);
  if (!secrets.length) return found;
  return found.map((r) => {
    const row: Row = { ...r };
    const withheld = secrets.filter((k) => k in row);
    for (const k of withheld) row[k] = row[k] === null ? null : '(held, not shown)';
    return withheld.length ? { ...row, withheld } : row;
  });
}

/** Reads each row's text columns, works out what stays in TS (the postcode rules), and writes them back by id. */
async function rewrite<T extends { id: number }>(
  tx: Queryable, select: string, params: unknown[], update: string, keep: (row: T) => Record<string, unknown>,
): Promise<void> {
  const found = await tx.query<T>(select, params);
  if (!found.length) return;
  await tx.query(update, [json(found.map((r) => ({ id: r.id, ...keep(r) })))]);
}

const email = (s: Subject) => s.email.trim().toLowerCase();

export const PERSONAL_TABLES: readonly PersonalTable[] = [
  {
    table: 'bookings', title: 'Bookings',
    holds: 'pickup and drop-off addresses, flight numbers, the reason a booking was cancelled, the reason its price was set by hand',
    find: (q, s) => rows(q, `SELECT * FROM bookings WHERE id ${inIds('$1')} ORDER BY id`, [json(s.bookingIds)]),
    bookings: (tx, ids) => rewrite<{ id: number; pick: string; drop: string | null }>(tx,
      `SELECT id, pick_up_address AS pick, drop_off_address AS drop FROM bookings WHERE id ${inIds('$1')}`, [json(ids)],
      `UPDATE bookings b SET pick_up_address = v.pick, drop_off_address = v.drop, flight_no = NULL, return_flight_no = NULL,
              cancel_reason = CASE WHEN b.cancel_reason IS NULL THEN NULL ELSE '' END, passenger_id = NULL,
              price_override = CASE WHEN b.price_override IS NULL THEN NULL ELSE b.price_override || '{"reason":"(removed)"}'::jsonb END
         FROM json_to_recordset($1::json) AS v(id int, pick text, drop text) WHERE b.id = v.id`,
      (r) => ({ pick: postcodeDistrict(r.pick), drop: districtOrNull(r.drop) })),
  },
  {
    table: 'booking_passengers', title: 'Passenger on each booking',
    holds: 'the passenger\'s name, e-mail, phone and notes',
    find: (q, s) => rows(q, `SELECT * FROM booking_passengers WHERE booking_id ${inIds('$1')} OR lower(passenger_email) = $2 ORDER BY booking_id`,
      [json(s.bookingIds), email(s)]),
    bookings: (tx, ids) => tx.query(
      `UPDATE booking_passengers SET passenger_name = '', passenger_email = '', passenger_contact_no = '', additional_info = '', passenger_id = NULL
        WHERE booking_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'booking_details', title: 'Extras of each booking',
    holds: 'the name on the meet-and-greet sign',
    find: (q, s) => rows(q, `SELECT * FROM booking_details WHERE booking_id ${inIds('$1')} ORDER BY booking_id`, [json(s.bookingIds)]),
    bookings: (tx, ids) => tx.query(`UPDATE booking_details SET sign_text = NULL WHERE booking_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'booking_stops', title: 'Stops on the way',
    holds: 'the address of each stop',
    find: (q, s) => rows(q, `SELECT * FROM booking_stops WHERE booking_id ${inIds('$1')} ORDER BY booking_id, leg, position`, [json(s.bookingIds)]),
    bookings: (tx, ids) => rewrite<{ id: number; address: string; postcode: string }>(tx,
      `SELECT id, stop_address AS address, stop_post_code AS postcode FROM booking_stops WHERE booking_id ${inIds('$1')}`, [json(ids)],
      `UPDATE booking_stops s SET stop_address = v.district, stop_post_code = v.district, stop_street_number = ''
         FROM json_to_recordset($1::json) AS v(id int, district text) WHERE s.id = v.id`,
      (r) => ({ district: postcodeDistrict(`${r.address} ${r.postcode}`) })),
  },
  {
    table: 'booking_changes', title: 'Changes the passenger made',
    holds: 'the values before and after each change (name, phone, e-mail, flight, sign, notes)',
    find: (q, s) => rows(q, `SELECT * FROM booking_changes WHERE booking_id ${inIds('$1')} OR before::text ~* $2 OR after::text ~* $2 ORDER BY id`,
      [json(s.bookingIds), mentioning(email(s))]),
    bookings: (tx, ids) => tx.query(
      `UPDATE booking_changes SET before = ${nonPersonalJson('before')}, after = ${nonPersonalJson('after')} WHERE booking_id ${inIds('$1')}`, [json(ids)]),
    address: (tx, s) => tx.query(
      `UPDATE booking_changes SET before = ${nonPersonalJson('before')}, after = ${nonPersonalJson('after')}
        WHERE before::text ~* $1 OR after::text ~* $1`, [mentioning(email(s))]),
  },
  {
    table: 'audit_log', title: 'Timeline entries',
    holds: 'what each entry said of the booking (the values before and after, a passenger\'s own changes by e-mail)',
    find: (q, s) => rows(q,
      `SELECT * FROM audit_log WHERE booking_id ${inIds('$1')} OR staff_name ~* $2 OR subject ~* $2 OR before::text ~* $2 OR after::text ~* $2
        ORDER BY id`, [json(s.bookingIds), mentioning(email(s))]),
    bookings: (tx, ids) => tx.query(
      `UPDATE audit_log SET subject = '', before = ${nonPersonalJson('before')}, after = ${nonPersonalJson('after')},
              staff_name = CASE WHEN staff_id IS NULL AND staff_name LIKE 'Passenger (%' THEN 'Passenger' ELSE staff_name END
        WHERE booking_id ${inIds('$1')}`, [json(ids)]),
    address: (tx, s) => tx.query(
      `UPDATE audit_log SET subject = '', before = ${nonPersonalJson('before')}, after = ${nonPersonalJson('after')},
              staff_name = CASE WHEN staff_name ~* $1 THEN 'Passenger' ELSE staff_name END
        WHERE staff_name ~* $1 OR subject ~* $1 OR before::text ~* $1 OR after::text ~* $1`, [mentioning(email(s))]),
  },
  {
    table: 'outbound_emails', title: 'Messages sent',
    holds: 'e-mails and texts to the passenger, and the office\'s and driver\'s messages about the booking',
    // A confirmation waiting to be sent holds the booking's manage link: said to exist, not shown.
    find: async (q, s) => (await rows(q,
      `SELECT * FROM outbound_emails
        WHERE booking_id ${inIds('$1')} OR lower(to_address) = $2 OR lower(cc_address) = $2 OR lower(reply_to) = $2 OR to_address ${inTexts('$3')}
           OR body_text ~* $4 OR template_data ~* $4 OR subject ~* $4
        ORDER BY id`, [json(s.bookingIds), email(s), json(s.phones), mentioning(email(s))])).map((r) => (r.erase_after_send && r.template_data
      ? { ...r, template_data: '(holds a link to the booking: not shown)', withheld: ['template_data'] } : r)),
    bookings: (tx, ids) => tx.query(`DELETE FROM outbound_emails WHERE booking_id ${inIds('$1')}`, [json(ids)]),
    address: (tx, s) => tx.query(
      `DELETE FROM outbound_emails
        WHERE lower(to_address) = $1 OR lower(cc_address) = $1 OR lower(reply_to) = $1 OR to_address ${inTexts('$2')}
           OR body_text ~* $3 OR template_data ~* $3 OR subject ~* $3`, [email(s), json(s.phones), mentioning(email(s))]),
  },
  {
    table: 'booking_keys', title: 'Links to manage a booking',
    holds: 'that a link exists (only a hash of its key is kept)',
    find: (q, s) => rows(q, `SELECT * FROM booking_keys WHERE booking_id ${inIds('$1')} ORDER BY created_at`, [json(s.bookingIds)], ['key_hash']),
    bookings: (tx, ids) => tx.query(`DELETE FROM booking_keys WHERE booking_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'booking_flights', title: 'Flights followed',
    holds: 'the flight a booking\'s pickup followed',
    find: (q, s) => rows(q, `SELECT * FROM booking_flights WHERE booking_id ${inIds('$1')} ORDER BY booking_id`, [json(s.bookingIds)]),
    bookings: (tx, ids) => tx.query(`DELETE FROM booking_flights WHERE booking_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'job_positions', title: 'The car\'s position on the way',
    holds: 'where the car was on the way to the pickup',
    find: (q, s) => rows(q, `SELECT * FROM job_positions WHERE booking_id ${inIds('$1')}`, [json(s.bookingIds)]),
    bookings: (tx, ids) => tx.query(`DELETE FROM job_positions WHERE booking_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'refunds', title: 'Refunds',
    holds: 'refunds of the bookings\' payments (no personal data; listed as held about the bookings)',
    find: (q, s) => rows(q, `SELECT * FROM refunds WHERE booking_id ${inIds('$1')} ORDER BY id`, [json(s.bookingIds)]),
  },
  {
    // Kept whole for the VAT invoices' time (./anonymise.ts anonymiseInvoices), whatever happens to the booking.
    table: 'invoices', title: 'VAT invoices',
    holds: 'the buyer\'s name and the journey, as issued; on a company account\'s monthly invoice, the lines of these journeys (passenger, route)',
    find: async (q, s) => {
      const found = await rows(q,
        `SELECT * FROM invoices WHERE booking_id ${inIds('$1')}
            OR number IN (SELECT invoice_number FROM invoice_bookings WHERE booking_id ${inIds('$1')}) ORDER BY number`, [json(s.bookingIds)]);
      const mine = new Set((await q.query<{ booking_number: string }>(
        `SELECT booking_number FROM bookings WHERE id ${inIds('$1')}`, [json(s.bookingIds)])).map((b) => b.booking_number));
      // An account's invoice (issue 44): only the lines of these journeys; the others are colleagues'.
      return found.map((r) => (r.account_id == null ? r
        : { ...r, lines: (Array.isArray(r.lines) ? r.lines as { booking_number?: string }[] : []).filter((l) => mine.has(l.booking_number ?? '')) }));
    },
  },
  {
    table: 'invoice_notes', title: 'Credit and debit notes',
    holds: 'notes to the invoices (amounts only)',
    find: (q, s) => rows(q,
      `SELECT n.* FROM invoice_notes n JOIN invoices i ON i.number = n.invoice_number
        WHERE i.booking_id ${inIds('$1')} OR n.booking_id ${inIds('$1')} ORDER BY n.id`, [json(s.bookingIds)]),
  },
  {
    table: 'passengers', title: 'Contact records and account',
    holds: 'the name, e-mail and phone of each booking\'s contact, and the corporate account with its password (a hash)',
    find: (q, s) => rows(q, `SELECT * FROM passengers WHERE id ${inIds('$1')} ORDER BY id`, [json(s.passengerIds)], ['password_hash']),
    passengers: (tx, ids) => tx.query(
      `UPDATE passengers SET name = '', email = '', phone = '', password_hash = NULL, personal_data_removed_at = coalesce(personal_data_removed_at, now())
        WHERE id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'passenger_tokens', title: 'Account sign-ins',
    holds: 'that the account signed in (only a hash of each token is kept)',
    find: (q, s) => rows(q, `SELECT * FROM passenger_tokens WHERE passenger_id ${inIds('$1')} ORDER BY created_at`, [json(s.passengerIds)], ['token_hash']),
    passengers: (tx, ids) => tx.query(`DELETE FROM passenger_tokens WHERE passenger_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'password_reset_codes', title: 'Password reset codes',
    holds: 'that a reset code was sent (only a keyed hash of it is kept)',
    find: (q, s) => rows(q, `SELECT * FROM password_reset_codes WHERE passenger_id ${inIds('$1')} ORDER BY id`, [json(s.passengerIds)], ['code_hash']),
    passengers: (tx, ids) => tx.query(`DELETE FROM password_reset_codes WHERE passenger_id ${inIds('$1')}`, [json(ids)]),
  },
  {
    table: 'contact_messages', title: 'Contact Us messages',
    holds: 'the name, e-mail, phone and message (kept 12 months)',
    find: (q, s) => rows(q, `SELECT * FROM contact_messages WHERE lower(email) = $1 ORDER BY id`, [email(s)]),
    address: (tx, s) => tx.query('DELETE FROM contact_messages WHERE lower(email) = $1', [email(s)]),
  },
  {
    table: 'quote_requests', title: 'Quote requests',
    holds: 'the name, e-mail, phone, addresses and notes (kept 12 months)',
    find: (q, s) => rows(q, `SELECT * FROM quote_requests WHERE lower(passenger_email) = $1 ORDER BY id`, [email(s)]),
    address: (tx, s) => tx.query('DELETE FROM quote_requests WHERE lower(passenger_email) = $1', [email(s)]),
  },
  {
    table: 'auth_throttle', title: 'Sign-in attempts',
    holds: 'how many times the address tried to sign in (kept 30 days)',
    find: (q, s) => rows(q, `SELECT * FROM auth_throttle WHERE lower(email) = $1`, [email(s)]),
    address: (tx, s) => tx.query('DELETE FROM auth_throttle WHERE lower(email) = $1', [email(s)]),
  },
  {
    table: 'rate_limits', title: 'Message allowances',
    holds: 'how many messages went to the address in the last day (kept 2 days)',
    find: (q, s) => rows(q, `SELECT * FROM rate_limits WHERE key ${inTexts('$1')} OR key ~* $2`, [json(s.allowanceKeys), mentioning(email(s))]),
    address: (tx, s) => tx.query(`DELETE FROM rate_limits WHERE key ${inTexts('$1')} OR key ~* $2`, [json(s.allowanceKeys), mentioning(email(s))]),
  },
  {
    // Kept on erase: a number that answered STOP is never texted again.
    table: 'sms_opt_outs', title: 'Texts refused (STOP)',
    holds: 'a phone number that asked for no more texts',
    find: (q, s) => rows(q, `SELECT * FROM sms_opt_outs WHERE phone ${inTexts('$1')}`, [json(s.phones)]),
  },
  {
    // The local test card gateway (no Stripe keys): the card's billing name and e-mail, as the card page sent them.
    // With Stripe they are held by Stripe, not here.
    table: 'test_gateway_objects', title: 'Card details at the test card gateway',
    holds: 'the billing name and e-mail given with a test card',
    find: (q, s) => rows(q,
      `SELECT * FROM test_gateway_objects WHERE kind = 'payment_method'
          AND (lower(data->'billing_details'->>'email') = $1
               OR id IN (SELECT i.data->>'payment_method' FROM test_gateway_objects i JOIN bookings b ON b.payment_intent_id = i.id
                          WHERE b.id ${inIds('$2')}))
        ORDER BY created_at`, [email(s), json(s.bookingIds)]),
    bookings: (tx, ids) => tx.query(
      `UPDATE test_gateway_objects SET data = jsonb_set(data, '{billing_details}', '{}'::jsonb)
        WHERE kind = 'payment_method' AND id IN (SELECT i.data->>'payment_method' FROM test_gateway_objects i
                                                   JOIN bookings b ON b.payment_intent_id = i.id WHERE b.id ${inIds('$1')})`, [json(ids)]),
    address: (tx, s) => tx.query(
      `UPDATE test_gateway_objects SET data = jsonb_set(data, '{billing_details}', '{}'::jsonb)
        WHERE kind = 'payment_method' AND lower(data->'billing_details'->>'email') = $1`, [email(s)]),
  },
  {
    // A booking taken by phone and paid through a link (issue 43 §1, migration 028): where the link was sent.
    table: 'payment_links', title: 'Card payment links',
    holds: 'the e-mail address or phone the link to pay was sent to (only a hash of its key is kept)',
    find: (q, s) => rows(q, `SELECT * FROM payment_links WHERE booking_id ${inIds('$1')} OR lower(sent_to) = $2 OR sent_to ${inTexts('$3')}
      ORDER BY created_at`, [json(s.bookingIds), email(s), json(s.phones)], ['key_hash']),
    bookings: (tx, ids) => tx.query(`DELETE FROM payment_links WHERE booking_id ${inIds('$1')}`, [json(ids)]),
    address: (tx, s) => tx.query(`DELETE FROM payment_links WHERE lower(sent_to) = $1 OR sent_to ${inTexts('$2')}`, [email(s), json(s.phones)]),
  },
  // Complaints and lost property (issue 43 §3, migrations 030 and 031): the complainant's or owner's contact details and
  // every free text (which may name or describe people) go; the entry stays as the operator's record: its dates, kind,
  // status, booking, driver and vehicle. A closed entry keeps an outcome, as its table requires.
  ...(['complaints', 'lost_property'] as const).map((table): PersonalTable => ({
    table, title: table === 'complaints' ? 'Complaints' : 'Lost property',
    holds: table === 'complaints'
      ? "the complainant's name, e-mail and phone, and what the complaint, its investigation and its outcome say"
      : "the owner's name, e-mail and phone, the item's description, and where it was lost or found",
    find: (q, s) => rows(q, `SELECT * FROM ${table} WHERE booking_id ${inIds('$1')} OR lower(contact_email) = $2 OR contact_phone ${inTexts('$3')} ORDER BY id`,
      [json(s.bookingIds), email(s), json(s.phones)]),
    bookings: (tx, ids) => anonymiseEntries(tx, table, `booking_id ${inIds('$1')}`, [json(ids)]),
    address: (tx, s) => anonymiseEntries(tx, table, `lower(contact_email) = $1 OR contact_phone ${inTexts('$2')}`, [email(s), json(s.phones)]),
  })),
  // ---------------------------------------------------------------------------------------------------------------
  // MORE TABLES GO HERE, one step each, as the features that made them add them.
  // ---------------------------------------------------------------------------------------------------------------
];

/** What of a complaint or lost property entry is personal, made anonymous where `where` holds (its booking, its address). */
const ENTRY_TEXTS = {
  complaints: "nature = '(removed)', investigation = '', action_taken = ''",
  lost_property: "description = '(removed)', found_place = '', return_attempts = '', disposal = '', lost_place = '', searches = ''",
} as const;
export function anonymiseEntries(tx: Queryable, table: keyof typeof ENTRY_TEXTS, where: string, params: unknown[]): Promise<unknown> {
  return tx.query(
    `UPDATE ${table} SET contact_name = '', contact_email = '', contact_phone = '', notes = '', ${ENTRY_TEXTS[table]},
            outcome = CASE WHEN status = 'closed' THEN '(removed)' ELSE '' END,
            personal_data_removed_at = coalesce(personal_data_removed_at, now())
      WHERE ${where}`, params);
}

/** The step of a table (tests). */
export const personalTable = (table: string) => PERSONAL_TABLES.find((t) => t.table === table) ?? null;
