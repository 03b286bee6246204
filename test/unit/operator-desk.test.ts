// Issue 26 and decision 41 (the operator's console, README "Running the office"): what the office may do with a booking
// and when, and the driver and cancel forms as a dispatcher fills them in (the console and the server ask the same rules).
import { describe, expect, it } from 'vitest';
import {
  allowedActions, BOARD_TABS, BOOKING_STATUSES, cancelErrors, driverErrors, isBoardTab, isBookingStatus, isRegistration, plate,
  refundPence, ROLE_LABELS, STAFF_ROLES, STATUS_LABELS, TAB_LABELS,
} from '../../src/domain/operatorDesk';

const pickupAt = new Date('2030-09-12T06:15:00Z'); // 07:15 in London
const minutes = (n: number) => new Date(pickupAt.getTime() + n * 60_000);

describe("the office's buttons on a booking", () => {
  it('offers a driver and cancelling on a confirmed booking before its pickup time, up to the last minute', () => {
    expect(allowedActions({ status: 'confirmed', pickupAt }, minutes(-24 * 60))).toEqual(['assignDriver', 'cancel']);
    expect(allowedActions({ status: 'confirmed', pickupAt }, minutes(-1))).toEqual(['assignDriver', 'cancel']);
  });

  it('adds Mark completed and Mark no-show from the pickup time on, the very minute included', () => {
    expect(allowedActions({ status: 'confirmed', pickupAt }, pickupAt)).toEqual(['assignDriver', 'complete', 'noShow', 'cancel']);
    expect(allowedActions({ status: 'confirmed', pickupAt }, minutes(1))).toEqual(['assignDriver', 'complete', 'noShow', 'cancel']);
    expect(allowedActions({ status: 'confirmed', pickupAt }, minutes(3 * 24 * 60))).toEqual(['assignDriver', 'complete', 'noShow', 'cancel']);
  });

  it('offers nothing on a finished, cancelled, unpaid or expired booking, before or after its pickup time', () => {
    for (const status of ['completed', 'no_show', 'cancelled', 'pending', 'expired']) {
      expect(allowedActions({ status, pickupAt }, minutes(-60)), `${status} before`).toEqual([]);
      expect(allowedActions({ status, pickupAt }, minutes(60)), `${status} after`).toEqual([]);
    }
    expect(allowedActions({ status: '', pickupAt }, minutes(-60))).toEqual([]);
  });
});

describe("the console's words for staff, statuses and tabs", () => {
  it('has three kinds of staff: administrators, dispatchers and company members', () => {
    expect(STAFF_ROLES.map((role) => [role, ROLE_LABELS[role]])).toEqual([['admin', 'Administrator'], ['dispatcher', 'Dispatcher'], ['company', 'Company']]);
  });

  it('names each status in words on the board and the booking page', () => {
    expect(BOOKING_STATUSES.map((status) => STATUS_LABELS[status])).toEqual([
      'Awaiting payment', 'Confirmed', 'Completed', 'No-show', 'Cancelled', 'Expired (never paid)',
    ]);
  });

  it('knows the six statuses a booking is stored with, and the five tabs of the board', () => {
    expect(['pending', 'confirmed', 'completed', 'no_show', 'cancelled', 'expired'].every(isBookingStatus)).toBe(true);
    expect(['paid', 'Confirmed', 'no-show', ''].some(isBookingStatus)).toBe(false);
    expect(BOARD_TABS.map((tab) => TAB_LABELS[tab])).toEqual(['Today', 'Upcoming', 'Past', 'Awaiting payment', 'Cancelled']);
    expect(['today', 'upcoming', 'past', 'awaiting', 'cancelled'].every(isBoardTab)).toBe(true);
    expect(['Today', 'all', ''].some(isBoardTab)).toBe(false);
  });
});

describe('a registration as on the plate', () => {
  it('is 2 to 8 letters and digits, spaces aside, in any case', () => {
    for (const ok of ['LB71 XKE', 'lb71xke', ' LB71  XKE ', 'A1', 'AB12CDEF', 'AB 12 CD EF', 'Q 1']) {
      expect(isRegistration(ok), ok).toBe(true);
    }
  });

  it('is nothing else: one character, nine, or a character that is not on a plate, at either end or inside', () => {
    for (const bad of ['', '   ', 'A', 'AB12CDEFG', 'LB71-XKE', 'L!', '!LB71XKE', 'LB71XKE!', 'LB71.XKE', 'LB71 XKÉ']) {
      expect(isRegistration(bad), bad).toBe(false);
    }
  });

  it('is shown in capitals with one space between its groups', () => {
    expect(plate(' lb71  xke ')).toBe('LB71 XKE');
    expect(plate('ab19\tcde')).toBe('AB19 CDE');
    expect(plate('LB71XKE')).toBe('LB71XKE');
  });
});

describe('the driver form', () => {
  const dan = { name: 'Dan Price', mobile: '07700 900777', vehicle: 'Mercedes E-Class', registration: 'LB71 XKE' };

  it('takes a name, a mobile, a make and model and a registration, surrounding spaces aside', () => {
    expect(driverErrors(dan)).toEqual({});
    expect(driverErrors({ name: '  Dan Price ', mobile: ' +44 7700 900777 ', vehicle: ' E-Class ', registration: ' lb71  xke ' })).toEqual({});
  });

  it('asks for each field left empty, blank or not text, in its own words', () => {
    const asked = {
      name: "Enter the driver's name.",
      mobile: "Enter the driver's mobile number.",
      vehicle: 'Enter the make and model, e.g. Mercedes E-Class.',
      registration: 'Enter the registration.',
    };
    expect(driverErrors({})).toEqual(asked);
    expect(driverErrors({ name: '', mobile: '', vehicle: '', registration: '' })).toEqual(asked);
    expect(driverErrors({ name: '   ', mobile: ' \t ', vehicle: '  ', registration: '\n' })).toEqual(asked);
    expect(driverErrors({ name: 42, mobile: 7700900777, vehicle: true, registration: ['LB71 XKE'] })).toEqual(asked);
    expect(driverErrors({ ...dan, name: ' ' })).toEqual({ name: "Enter the driver's name." });
    expect(driverErrors({ ...dan, registration: null })).toEqual({ registration: 'Enter the registration.' });
  });

  it('takes a name and a make and model of up to 80 characters, and says so at 81', () => {
    const eighty = 'D'.repeat(80);
    expect(driverErrors({ ...dan, name: eighty, vehicle: eighty })).toEqual({});
    expect(driverErrors({ ...dan, name: `  ${eighty}  `, vehicle: `  ${eighty}  ` })).toEqual({});
    expect(driverErrors({ ...dan, name: `${eighty}x`, vehicle: `${eighty}x` })).toEqual({
      name: 'The name is at most 80 characters.',
      vehicle: 'The make and model is at most 80 characters.',
    });
  });

  it('refuses a mobile number that is not one, and a registration not as on a plate, with an example of each', () => {
    expect(driverErrors({ ...dan, mobile: '123', registration: 'L!' })).toEqual({
      mobile: 'Enter a valid mobile number, e.g. 07700 900123.',
      registration: 'Enter the registration as on the plate, e.g. LB71 XKE.',
    });
    expect(driverErrors({ ...dan, registration: 'AB12CDEFG' })).toEqual({ registration: 'Enter the registration as on the plate, e.g. LB71 XKE.' });
  });
});

describe('the refund when a paid card booking is cancelled', () => {
  it('is all that was paid when no amount is entered', () => {
    expect([refundPence(undefined, 6240), refundPence('', 6240), refundPence('   ', 6240)]).toEqual([6240, 6240, 6240]);
  });

  it('is the part entered in pounds, with or without pence, surrounding spaces aside', () => {
    expect([refundPence('25', 6240), refundPence('25.5', 6240), refundPence('10.50', 6240), refundPence(' 10.50 ', 6240), refundPence('0.01', 6240)])
      .toEqual([2500, 2550, 1050, 1050, 1]);
  });

  it('is never more than was paid: all of it may be entered, a penny more may not', () => {
    expect(refundPence('62.40', 6240)).toBe(6240);
    expect(refundPence('62.41', 6240)).toBe('The refund cannot be more than the £62.40 paid.');
    expect(refundPence('9999.00', 1234)).toBe('The refund cannot be more than the £12.34 paid.');
  });

  it('is more than nothing: £0 is not a refund', () => {
    for (const zero of ['0', '0.00', '0.0']) expect(refundPence(zero, 6240), zero).toBe('Enter more than £0.00, or choose not to refund.');
  });

  it('is written in pounds like 25.00: no pound sign, no third decimal, no letters, no minus', () => {
    for (const bad of ['£25.00', '25.005', '25.', '.50', '25,00', '-5', '25.00x', 'x25', 'ten', '2 5']) {
      expect(refundPence(bad, 6240), bad).toBe('Enter the refund in pounds, like 25.00.');
    }
  });
});

describe('the cancel form', () => {
  const pounds62 = 6240;

  it('asks for a reason, which the passenger is told, of at most 500 characters', () => {
    const ask = { reason: 'Enter the reason: the passenger is told it.' };
    expect(cancelErrors({}, null)).toEqual(ask);
    expect(cancelErrors({ reason: '' }, null)).toEqual(ask);
    expect(cancelErrors({ reason: '   ' }, null)).toEqual(ask);
    expect(cancelErrors({ reason: 500 }, null)).toEqual(ask);
    expect(cancelErrors({ reason: 'Flight cancelled by the airline' }, null)).toEqual({});
    expect(cancelErrors({ reason: 'r'.repeat(500) }, null)).toEqual({});
    expect(cancelErrors({ reason: `  ${'r'.repeat(500)}  ` }, null)).toEqual({});
    expect(cancelErrors({ reason: 'r'.repeat(501) }, null)).toEqual({ reason: 'The reason is at most 500 characters.' });
  });

  it('asks nothing about money for a booking with nothing paid by card', () => {
    expect(cancelErrors({ reason: 'Passenger called' }, null)).toEqual({});
    expect(cancelErrors({ reason: 'Passenger called', refund: 'maybe', refund_amount: '9999' }, null)).toEqual({});
  });

  it('asks whether to refund a paid card booking', () => {
    const choose = { refund: 'Choose whether to refund the payment.' };
    expect(cancelErrors({ reason: 'Duplicate booking' }, pounds62)).toEqual(choose);
    expect(cancelErrors({ reason: 'Duplicate booking', refund: 'maybe' }, pounds62)).toEqual(choose);
    expect(cancelErrors({ reason: 'Duplicate booking', refund: true }, pounds62)).toEqual(choose);
    expect(cancelErrors({ reason: '' }, pounds62)).toEqual({ reason: 'Enter the reason: the passenger is told it.', ...choose });
  });

  it('refunds all of it when no amount is entered, or the part entered when it is no more than was paid', () => {
    expect(cancelErrors({ reason: 'Duplicate booking', refund: 'yes' }, pounds62)).toEqual({});
    expect(cancelErrors({ reason: 'Duplicate booking', refund: 'yes', refund_amount: '' }, pounds62)).toEqual({});
    expect(cancelErrors({ reason: 'Duplicate booking', refund: 'yes', refund_amount: 62.4 }, pounds62)).toEqual({});
    expect(cancelErrors({ reason: 'Late cancellation', refund: 'yes', refund_amount: '10.50' }, pounds62)).toEqual({});
    expect(cancelErrors({ reason: 'Late cancellation', refund: 'yes', refund_amount: '62.40' }, pounds62)).toEqual({});
  });

  it('says what is wrong with the amount entered', () => {
    expect(cancelErrors({ reason: 'No-show fee kept', refund: 'yes', refund_amount: '9999.00' }, pounds62))
      .toEqual({ refund_amount: 'The refund cannot be more than the £62.40 paid.' });
    expect(cancelErrors({ reason: 'No-show fee kept', refund: 'yes', refund_amount: '0' }, pounds62))
      .toEqual({ refund_amount: 'Enter more than £0.00, or choose not to refund.' });
    expect(cancelErrors({ reason: 'No-show fee kept', refund: 'yes', refund_amount: '£10' }, pounds62))
      .toEqual({ refund_amount: 'Enter the refund in pounds, like 25.00.' });
  });

  it('keeps the money when asked to, whatever amount was typed before the choice', () => {
    expect(cancelErrors({ reason: 'Cancelled inside 24 hours', refund: 'no' }, pounds62)).toEqual({});
    expect(cancelErrors({ reason: 'Cancelled inside 24 hours', refund: 'no', refund_amount: '9999.00' }, pounds62)).toEqual({});
  });
});
