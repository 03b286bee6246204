// What the office does to a booking from the console (issue 26): assign a driver and car from the record (issue 41), mark it completed or a no-show,
// cancel it (refunding a card payment), refund what a cancellation left. Each action locks the booking's row, checks
// the action is still allowed (operatorDesk.ts allowedActions, refundDue), changes it, writes the audit entry and the
// e-mails, all in one transaction: two dispatchers pressing at once change it once. A refund is written with the
// cancellation and only then asked of the card provider, under its own idempotency key (see refunds.ts). Only the
// office moves money (decision 50): a company's staff cancel without a refund, and the office is told.
import type { Db, Queryable } from '../db/index';
import {
  allowedActions, cancelErrors, mayRefund, MESSAGES, refundDue, refundPence, type BookingAction, type CancelInput,
} from '../../domain/operatorDesk';
import { assignErrors, dispatchCopy, dispatchProblems, type AssignInput, type DispatchNeeds } from '../../domain/fleetRecords';
import { carById, driverById } from './fleetRecords';
import { formatExactPrice } from '../../domain/money';
import { currencyOf, operatorEmail, type Settings } from '../../domain/settings';
import { DomainError } from '../errors';
import { enqueueEmail, enqueueSms } from '../mail/queue';
import { driverAssignedText, driverJobText, jobGoneText, textable } from '../mail/texts';
import { bookingCancelledMail, driverAssignedMail, driverJobMail, refundAfterCancelMail, refundDueNotice, refundWords } from '../mail/templates';
import { loadBooking } from '../bookings/queries';
import { consoleUrl, recordChange, tellDriverCancelled, tellOffice } from '../bookings/bookingHistory';
import { deskBooking, scopeOf, type DeskBooking } from './deskQueries';
import { paymentsLeft, refundableLeft, writeRefunds } from '../payments/ledger';
import type { Staff } from './staff';

export interface DeskDeps { db: Db; settings: Settings; now: Date; siteUrl: string }

/** Writes who did what to which booking, with the values before and after. */
export const audit = (tx: Queryable, staff: Staff, action: string, bookingId: number | null, subject: string, before: unknown, after: unknown) =>
  recordChange(tx, { staffId: staff.id, name: `${staff.name} (${staff.email})` }, action, bookingId, subject, before, after);

/** The booking, locked for this transaction, when the viewer may see it (404 otherwise). */
async function lockSeen(tx: Queryable, staff: Staff, reference: string): Promise<DeskBooking> {
  await tx.query('SELECT 1 FROM bookings WHERE booking_number = $1 FOR UPDATE', [reference.trim().toUpperCase()]);
  const b = await deskBooking(tx, scopeOf(staff), reference);
  if (!b) throw new DomainError('notFound', MESSAGES.notFound);
  return b;
}

/**
 * The booking, locked for this transaction, when the viewer may see it (404 otherwise) and the action is still allowed
 * (409 otherwise: someone else got there first, or its time has passed).
 */
async function lockFor(tx: Queryable, deps: DeskDeps, staff: Staff, reference: string, action: BookingAction): Promise<DeskBooking> {
  const b = await lockSeen(tx, staff, reference);
  if (!allowedActions({ status: b.status, pickupAt: new Date(b.pickup_at) }, deps.now).includes(action)) {
    throw new DomainError('conflict', MESSAGES.notAllowed);
  }
  return b;
}

/** The first of a form's messages as the 422 the API gives, naming its field. */
function refuse(errors: Record<string, string | undefined>): void {
  const [field, message] = Object.entries(errors).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
}

const notifyOffice = (tx: Queryable, deps: DeskDeps, b: DeskBooking, what: string, rows: [string, string][], staff: Staff) =>
  tellOffice(tx, deps, b, what, rows, staff.name);

/** What the booking asks of its driver and car (fleetRecords.ts dispatchProblems). */
export async function dispatchNeeds(tx: Queryable, b: Pick<DeskBooking, 'id'>): Promise<DispatchNeeds> {
  const [row] = await tx.query<DispatchNeeds>(
    `SELECT b.company_id, c.company_name, to_char(b.pick_up_date, 'YYYY-MM-DD') AS pickup_date,
            greatest(coalesce(p.total_passengers, 1), 1) AS passengers, coalesce(d.wheel_chair, 'no') = 'yes' AS wheelchair
       FROM bookings b JOIN companies c ON c.id = b.company_id
       LEFT JOIN booking_passengers p ON p.booking_id = b.id LEFT JOIN booking_details d ON d.booking_id = b.id
      WHERE b.id = $1`, [b.id]);
  return row;
}

/**
 * Gives a booking a driver and a car from the record (or new ones), when they may take it (dispatchProblems: licences,
 * MOT and insurance in force on the pickup date, the booking's company, wheelchair, passengers): otherwise 422 with
 * every reason, naming the driver's or the car's field. The booking keeps a copy of what was true then, with who
 * dispatched it and when. The passenger is e-mailed the driver's details each time, and texted them (issue 41 §3).
 */
export async function assignDriver(deps: DeskDeps, staff: Staff, reference: string, input: Partial<Record<keyof AssignInput, unknown>>) {
  refuse(assignErrors(input));
  return deps.db.transaction(async (tx) => {
    const b = await lockFor(tx, deps, staff, reference, 'assignDriver');
    const scope = scopeOf(staff);
    const [driver, car] = await Promise.all([driverById(tx, scope, Number(input.driver_id)), carById(tx, scope, Number(input.car_id))]);
    if (!driver) throw new DomainError('invalid', 'This driver is not on your record. Reload the list and choose again.', 'driver_id');
    if (!car) throw new DomainError('invalid', 'This car is not on your record. Reload the list and choose again.', 'car_id');
    const problems = dispatchProblems(await dispatchNeeds(tx, b), driver, car);
    if (problems.length) throw new DomainError('invalid', problems.map((p) => p.message).join(' '), problems[0].field);
    const copy = dispatchCopy(driver, car, `${staff.name} (${staff.email})`, deps.now);
    // The job waits for the driver to accept it (issue 41 §2); a decline before is forgotten.
    await tx.query(`UPDATE bookings SET driver = $2, driver_id = $3, car_id = $4, dispatched_at = $5, job_status = 'assigned', job_status_at = $5,
                           declined_by = NULL, arrived_at = NULL WHERE id = $1`,
      [b.id, JSON.stringify(copy), driver.id, car.id, deps.now.toISOString()]);
    await audit(tx, staff, b.driver ? 'Driver changed' : 'Driver assigned', b.id,
      `${copy.name} (licence ${copy.licence_number}), ${copy.colour} ${copy.vehicle} ${copy.registration}`, b.driver, copy);
    const result = (await loadBooking(tx, b.id))!;
    const mail = driverAssignedMail(result, copy, deps.settings, b.driver !== null);
    await enqueueEmail(tx, { kind: 'driver_assigned', to: result.passengerDetails.passenger_email, ...mail, bookingId: b.id });
    // And by text, to a number that takes one (issue 41 §3), in the same transaction.
    const phone = result.passengerDetails.passenger_contact_no;
    if (textable(phone)) {
      await enqueueSms(tx, {
        kind: 'driver_assigned_sms', to: phone, label: `Your driver for ${b.booking_number}`, bookingId: b.id,
        text: driverAssignedText(result, copy, deps.settings, b.driver !== null),
      });
    }
    // The driver hears of the job by text and e-mail, with the link to their page; one who lost it is told (issue 41 §2).
    const driverUrl = `${deps.siteUrl}/driver`;
    const before = b.driver as { mobile?: string; driver_id?: number } | null;
    if (before?.mobile && before.driver_id !== driver.id && textable(before.mobile)) {
      await enqueueSms(tx, { kind: 'driver_job_taken', to: before.mobile, label: `Job ${b.booking_number} taken`, bookingId: b.id, text: jobGoneText(result, 'reassigned', deps.settings) });
    }
    if (before?.driver_id !== driver.id) {
      await enqueueSms(tx, { kind: 'driver_job', to: driver.mobile, label: `New job ${b.booking_number}`, bookingId: b.id, text: driverJobText(result, driverUrl, deps.settings) });
      if (driver.email) {
        await enqueueEmail(tx, { kind: 'driver_job', to: driver.email, ...driverJobMail(result, driver.name, driverUrl, deps.settings), bookingId: b.id });
      }
    }
    await notifyOffice(tx, deps, b, b.driver ? 'Driver changed' : 'Driver assigned', [
      ['Driver', `${copy.name} (licence ${copy.licence_number}, ${copy.licensing_authority})`], ['Driver mobile', copy.mobile],
      ['Vehicle', `${copy.colour} ${copy.vehicle}, ${copy.registration}`],
    ], staff);
    return copy;
  });
}

/** Marks a booking whose pickup time has come as completed or a no-show. */
export async function finishBooking(deps: DeskDeps, staff: Staff, reference: string, outcome: 'completed' | 'no_show') {
  return deps.db.transaction(async (tx) => {
    const b = await lockFor(tx, deps, staff, reference, outcome === 'completed' ? 'complete' : 'noShow');
    await tx.query('UPDATE bookings SET status = $2, completed_at = now() WHERE id = $1', [b.id, outcome]);
    await audit(tx, staff, outcome === 'completed' ? 'Marked completed' : 'Marked no-show', b.id, '', { status: b.status }, { status: outcome });
    return outcome;
  });
}

/**
 * Cancels a booking with its reason. A paid card booking's refund (all of it, or the part entered) is written now,
 * 'pending', and made by the caller after the commit (refunds.ts). The passenger, the office and the company are told.
 * A company's staff cancel without a refund (asking for one is refused, 403): the office is told, by a notice of its
 * own, that the payment is left for it to refund.
 */
export async function cancelBooking(deps: DeskDeps, staff: Staff, reference: string, input: Partial<Record<keyof CancelInput, string>>) {
  const office = mayRefund(staff.role);
  if (!office && input.refund === 'yes') throw new DomainError('forbidden', MESSAGES.officeRefunds, 'refund');
  return deps.db.transaction(async (tx) => {
    const b = await lockFor(tx, deps, staff, reference, 'cancel');
    const left = refundableLeft(await paymentsLeft(tx, b.id));
    const paid = left > 0 ? left : null;
    // Only the office is asked whether to refund.
    refuse(cancelErrors(input, office ? paid : null));
    const reason = input.reason!.trim();
    const refund = office && paid !== null && input.refund === 'yes' ? refundPence(input.refund_amount, paid) as number : null;
    // The passenger is always e-mailed of the office's cancellation (below); the booking's page reads it (migration 020).
    await tx.query("UPDATE bookings SET status = 'cancelled', cancelled_at = now(), cancel_reason = $2, cancel_emailed = true WHERE id = $1", [b.id, reason]);
    const refundIds = refund === null ? [] : await writeRefunds(tx, b.id, refund, { staffId: staff.id });
    const leftForOffice = office ? null : paid;
    await audit(tx, staff, 'Cancelled', b.id, reason, { status: b.status },
      { status: 'cancelled', reason, refund_pence: refund, ...(leftForOffice === null ? {} : { refund_left_to_office_pence: leftForOffice }) });
    const result = (await loadBooking(tx, b.id))!;
    const currency = currencyOf(deps.settings);
    const amount = leftForOffice === null ? '' : formatExactPrice((leftForOffice / 100).toFixed(2), currency);
    const money = leftForOffice === null
      ? refundWords(b.payment_method, refund, paid ?? 0, currency)
      : `Our office will e-mail you about refunding the ${amount} paid by card.`;
    const mail = bookingCancelledMail(result, reason, money, deps.settings);
    await enqueueEmail(tx, { kind: 'booking_cancelled', to: result.passengerDetails.passenger_email, ...mail, bookingId: b.id });
    await tellDriverCancelled(tx, b, result, deps.settings);
    await notifyOffice(tx, deps, b, 'Booking cancelled', [
      ['Reason', reason], ['Payment', leftForOffice === null ? money : `${amount} paid by card, not refunded: the office refunds it.`],
    ], staff);
    if (leftForOffice !== null) {
      const notice = refundDueNotice(result, `${staff.name} (${staff.company_name ?? staff.email})`, leftForOffice, reason, currency,
        consoleUrl(deps.siteUrl, b.booking_number));
      await enqueueEmail(tx, { kind: 'booking_change_notice', to: operatorEmail(deps.settings), ...notice, bookingId: b.id });
    }
    return { refundIds };
  });
}

/**
 * The office refunds what a cancellation left of a booking's card payments: all of it, written 'pending' with its
 * booking locked, so a second press (or a second dispatcher) finds nothing left (409). The passenger is told.
 */
export async function refundRest(deps: DeskDeps, staff: Staff, reference: string) {
  if (!mayRefund(staff.role)) throw new DomainError('forbidden', MESSAGES.officeRefunds);
  return deps.db.transaction(async (tx) => {
    const b = await lockSeen(tx, staff, reference);
    const left = refundableLeft(await paymentsLeft(tx, b.id));
    if (!refundDue({ status: b.status, leftPence: left })) throw new DomainError('conflict', MESSAGES.nothingToRefund);
    const refundIds = await writeRefunds(tx, b.id, left, { staffId: staff.id, afterCancel: true });
    const amount = formatExactPrice((left / 100).toFixed(2), currencyOf(deps.settings));
    await audit(tx, staff, 'Refunded', b.id, amount, { refundable_pence: left }, { refund_pence: left });
    const result = (await loadBooking(tx, b.id))!;
    const mail = refundAfterCancelMail(result, left, deps.settings);
    await enqueueEmail(tx, { kind: 'booking_cancelled', to: result.passengerDetails.passenger_email, ...mail, bookingId: b.id });
    return { refundIds };
  });
}
