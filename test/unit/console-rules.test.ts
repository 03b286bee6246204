// Issue 39 and decision 50: who moves the operator's money (the office: administrators and dispatchers, never a
// company's staff), when a cancelled booking offers Refund, and the console's and the manage page's bodies typed once
// (src/domain/consoleSchemas.ts, manageSchemas.ts): what each takes and what it refuses, naming the field.
import { describe, expect, it } from 'vitest';
import { StructError, validate, type Struct } from 'superstruct';
import { deskActions, mayRefund, MESSAGES, refundDue } from '../../src/domain/operatorDesk';
import { CancelBody, DATA_CHANGE_KINDS, DataChangeBody, DataRequest, AssignBody, SignInBody } from '../../src/domain/consoleSchemas';
import { ChangeBody, ChangeCompleteBody, ChangePaymentBody, FindBody } from '../../src/domain/manageSchemas';
import { CHANGE_FIELDS } from '../../src/domain/manageChanges';

const pickupAt = new Date('2030-09-12T06:15:00Z');
const before = new Date(pickupAt.getTime() - 3600_000);

describe('who moves the money', () => {
  it('is the office: an administrator or a dispatcher, never a company member nor anyone else', () => {
    expect(['admin', 'dispatcher', 'company', '', 'Admin'].map(mayRefund)).toEqual([true, true, false, false, false]);
  });

  it('offers a refund of a cancelled booking with money left, and of nothing else', () => {
    expect(refundDue({ status: 'cancelled', leftPence: 1 })).toBe(true);
    expect(refundDue({ status: 'cancelled', leftPence: 0 })).toBe(false);
    for (const status of ['confirmed', 'completed', 'no_show', 'pending', 'expired']) expect(refundDue({ status, leftPence: 4700 }), status).toBe(false);
  });

  it('puts Refund among the buttons of the office alone, after what the booking allows', () => {
    const cancelled = { status: 'cancelled', pickupAt, leftPence: 4700 };
    expect(deskActions(cancelled, 'admin', before)).toEqual(['refund']);
    expect(deskActions(cancelled, 'dispatcher', before)).toEqual(['refund']);
    expect(deskActions(cancelled, 'company', before)).toEqual([]);
    expect(deskActions({ ...cancelled, leftPence: 0 }, 'admin', before)).toEqual([]);
    expect(deskActions({ status: 'confirmed', pickupAt, leftPence: 4700 }, 'admin', before)).toEqual(['assignDriver', 'cancel']);
    expect(deskActions({ status: 'confirmed', pickupAt, leftPence: 4700 }, 'company', pickupAt)).toEqual(['assignDriver', 'complete', 'noShow', 'cancel']);
  });

  it("puts Change charge among the office's buttons alone, where the journey's charge may change (issue 44)", () => {
    const finished = { status: 'completed', pickupAt, leftPence: 0, chargeAdjustable: true };
    expect(deskActions(finished, 'admin', pickupAt)).toEqual(['adjustCharge']);
    expect(deskActions(finished, 'dispatcher', pickupAt)).toEqual(['adjustCharge']);
    expect(deskActions(finished, 'company', pickupAt)).toEqual([]);
    expect(deskActions({ ...finished, chargeAdjustable: false }, 'admin', pickupAt)).toEqual([]);
    expect(deskActions({ status: 'completed', pickupAt, leftPence: 0 }, 'admin', pickupAt)).toEqual([]);
  });

  it('says why in words a person reads', () => {
    expect(MESSAGES.officeRefunds).toBe('Only the office refunds a card payment: cancel without a refund, and the office is told to refund it.');
    expect(MESSAGES.nothingToRefund).toBe('Nothing is left to refund on this booking. Reload it to see where it stands.');
  });
});

/** The field a schema names when it refuses a value, or null when it takes it. */
function refused(struct: Struct<any, any>, value: unknown): string | null {
  const [error] = validate(value, struct);
  return error instanceof StructError ? error.path.join('.') : null;
}

describe("the console's bodies", () => {
  it('take text in every field of sign-in and the cancellation, and the driver and car as ids, each left out or not', () => {
    expect(refused(SignInBody, { email: 'a@b.uk', password: 'x' })).toBeNull();
    expect(refused(SignInBody, {})).toBeNull();
    expect(refused(AssignBody, { driver_id: '4', car_id: 5 })).toBeNull();
    expect(refused(AssignBody, {})).toBeNull();
    expect(refused(CancelBody, { reason: 'Duplicate', refund: 'yes', refund_amount: '' })).toBeNull();
    expect(refused(CancelBody, { reason: 'Duplicate', other: 1 })).toBeNull();
  });

  it('refuse anything but text there, naming the field', () => {
    for (const value of [25, ['25'], { pounds: 25 }, null, true]) {
      expect(refused(SignInBody, { email: value }), String(value)).toBe('email');
      expect(refused(SignInBody, { password: value })).toBe('password');
      if (typeof value !== 'number') for (const field of ['driver_id', 'car_id']) expect(refused(AssignBody, { [field]: value })).toBe(field);
      for (const field of ['reason', 'refund', 'refund_amount']) expect(refused(CancelBody, { reason: 'x', [field]: value })).toBe(field);
    }
  });

  it('check a change of the operator data by its kind, numbers as text or numbers, naming the field as the form does', () => {
    expect(DATA_CHANGE_KINDS).toEqual(['setting', 'company', 'companyActive', 'vehicle', 'rate', 'address', 'ban', 'unban', 'addStaff', 'staffDbs', 'removeStaff', 'driver', 'car']);
    expect(refused(DataChangeBody, { kind: 'driver', id: 3, name: 'Dan', active: true })).toBeNull();
    expect(refused(DataChangeBody, { kind: 'driver', licence_expiry: 20270101 })).toBe('licence_expiry');
    expect(refused(DataChangeBody, { kind: 'car', passengers: 4, wheelchair: 'yes' })).toBeNull();
    expect(refused(DataChangeBody, { kind: 'car', wheelchair: ['yes'] })).toBe('wheelchair');
    expect(refused(DataChangeBody, { kind: 'vehicle', category_name: 'Estate', seats: 4, luggage: '4', hand_luggage: '3' })).toBeNull();
    expect(refused(DataChangeBody, { kind: 'vehicle', category_name: 'Estate', seats: ['4'] })).toBe('seats');
    expect(refused(DataChangeBody, { kind: 'rate', bands: [{ from_miles: 0, per_mile: '2.60' }, { from_miles: '', per_mile: '' }] })).toBeNull();
    expect(refused(DataChangeBody, { kind: 'rate', bands: [{ from_miles: 0, per_mile: null }] })).toBe('bands.0.per_mile');
    expect(refused(DataChangeBody, { kind: 'rate', bands: 'all' })).toBe('bands');
    expect(refused(DataChangeBody, { kind: 'companyActive', company_name: 'Metro Cars London', active: false })).toBeNull();
    expect(refused(DataChangeBody, { kind: 'companyActive', company_name: 'Metro Cars London', active: 'false' })).toBe('active');
    expect(refused(DataChangeBody, { kind: 'setting', name: 'GRACE_TIME', value: 120 })).toBe('value');
    expect(refused(DataChangeBody, { kind: 'address', address: 'x', lat: '51.5', lon: -0.12, postcode: {} })).toBe('postcode');
    expect(refused(DataChangeBody, { kind: 'addStaff', email: 'a@b.uk', name: 'A', role: 'dispatcher', company: 7 })).toBe('company');
    expect(refused(DataChangeBody, { kind: 'removeStaff', email: ['a@b.uk'] })).toBe('email');
    expect(refused(DataChangeBody, { kind: 'ban', pattern: 'x', reason: 1 })).toBe('reason');
    expect(refused(DataChangeBody, { kind: 'unban', pattern: null })).toBe('pattern');
    expect(refused(DataChangeBody, { kind: 'company', company_name: 'A', contact_phone: 20 })).toBe('contact_phone');
  });

  it('name kind for a change of no kind, even a name every object has', () => {
    for (const kind of ['toString', 'constructor', '__proto__', 'owner', 7, undefined]) expect(refused(DataChangeBody, { kind }), String(kind)).toBe('kind');
    // No change at all is refused as what it is (not an object), never thrown on.
    expect(validate(null, DataChangeBody)[0]?.message).toBe('Expected an object, but received: null');
    expect(refused(DataRequest, { change: { kind: 'unban' } })).toBeNull();
    expect(refused(DataRequest, { change: 'unban' })).toBe('change');
    expect(refused(DataRequest, {})).toBe('change');
  });
});

describe("the manage page's bodies", () => {
  it('take any of the change form\'s fields as text, and the total accepted', () => {
    expect(refused(ChangeBody, { passenger_name: 'Ada Lovelace', accept_total: '47.00' })).toBeNull();
    expect(refused(ChangeBody, {})).toBeNull();
    for (const field of [...CHANGE_FIELDS, 'accept_total']) expect(refused(ChangeBody, { [field]: 9 }), field).toBe(field);
  });

  it('need the payment method, the payment, and refuse a reference or an e-mail that is not text', () => {
    expect(refused(ChangePaymentBody, { paymentMethodId: 'pm_1' })).toBeNull();
    expect(refused(ChangePaymentBody, {})).toBe('paymentMethodId');
    expect(refused(ChangeCompleteBody, { paymentIntentId: 7 })).toBe('paymentIntentId');
    expect(refused(FindBody, { reference: 'BK-1', email: 'a@b.uk' })).toBeNull();
    expect(refused(FindBody, { reference: ['BK-1'] })).toBe('reference');
    expect(refused(FindBody, { email: null })).toBe('email');
  });
});
