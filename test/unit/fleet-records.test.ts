// Issue 41 §1 (drivers and cars on record, src/domain/fleetRecords.ts): the driver and car forms' rules and the records
// they make, registrations as on the plate, the documents' expiry flags and notes, who may drive which booking
// (dispatchProblems), the assign form, and the copy a booking keeps of its dispatch.
import { describe, expect, it } from 'vitest';
import {
  assignErrors, carDocuments, carRecord, carRecordErrors, daysUntil, dispatchCopy, dispatchProblems, driverDocuments, driverRecord,
  driverRecordErrors, EXPIRY_WARNING_DAYS, expiryFlag, expiryNotes, isPlate, isUkMobile, normaliseRegistration,
  type CarRecordInput, type DispatchCar, type DispatchDriver, type DispatchNeeds, type DriverRecordInput,
} from '../../src/domain/fleetRecords';
import { EMAIL_INVALID } from '../../src/domain/messages';

const NOT_UK_MOBILE = 'This is not a UK mobile number: the job and sign-in codes are sent to it by SMS. Enter one starting 07.';

const goodDriver: DriverRecordInput = {
  name: 'Sam Patel', mobile: '07700 900123', email: 'sam@example.co.uk', licence_number: 'pd123456', licensing_authority: 'Transport for London',
  licence_expiry: '2027-03-31', company_id: '3', active: 'yes',
};

const goodCar: CarRecordInput = {
  registration: 'lb19xke', make: 'Mercedes-Benz', model: 'E-Class', colour: 'Black', vehicle_type_id: '2', passengers: '4', suitcases: '3',
  wheelchair: 'no', licence_number: 'pv12345', licence_expiry: '2027-03-31', mot_expiry: '2027-01-15', insurance_expiry: '2026-12-31',
  company_id: '3', active: 'yes',
};

const chars = (n: number) => 'x'.repeat(n);

describe('a UK mobile as stored', () => {
  it('is 071-075 or 077-079 with eight more digits, or the Isle of Man 07624 with six', () => {
    for (const ok of ['+447700900123', '+447911123456', '+447624123456', '+447123456789', '+447512345678', '+447412345678', '+447812345678']) {
      expect(isUkMobile(ok), ok).toBe(true);
    }
  });

  it('is not nothing, a landline, a 070 personal number, a 076 pager, nor a number of the wrong length', () => {
    expect(isUkMobile(null)).toBe(false);
    for (const bad of [
      '', '+442079460321', '+447012345678', '+447612345678', '+44762412345', '+4479111234567', '+44791112345', '+4476241234567',
      '447911123456', '07911123456', '+447911123456 ', '+1447911123456',
    ]) {
      expect(isUkMobile(bad), bad).toBe(false);
    }
  });
});

describe('a registration as the plate shows it', () => {
  it('puts the current format (two letters, two digits, three letters) in capitals with its one space', () => {
    expect(normaliseRegistration('lb19xke')).toBe('LB19 XKE');
    expect(normaliseRegistration(' lb19  xke ')).toBe('LB19 XKE');
    expect(normaliseRegistration('L B 1 9 X K E')).toBe('LB19 XKE');
  });

  it('spaces the prefix format after its digits and the suffix format after its letters', () => {
    expect(normaliseRegistration('a123bcd')).toBe('A123 BCD');
    expect(normaliseRegistration('a1bcd')).toBe('A1 BCD');
    expect(normaliseRegistration('A12 BCD')).toBe('A12 BCD');
    expect(normaliseRegistration('abc123d')).toBe('ABC 123D');
    expect(normaliseRegistration('abc1d')).toBe('ABC 1D');
    expect(normaliseRegistration('abc 12 d')).toBe('ABC 12D');
  });

  it('keeps any other plate as typed, in capitals, its spaces trimmed and made single', () => {
    expect(normaliseRegistration('ab 1')).toBe('AB 1');
    expect(normaliseRegistration('  ab   1  ')).toBe('AB 1');
    expect(normaliseRegistration('ab1')).toBe('AB1');
    expect(normaliseRegistration('1\tabc')).toBe('1 ABC');
    expect(normaliseRegistration('a1234bcd')).toBe('A1234BCD');
    expect(normaliseRegistration('abcd123e')).toBe('ABCD123E');
    expect(normaliseRegistration('lb19xk')).toBe('LB19XK');
    expect(normaliseRegistration('abc1234d')).toBe('ABC1234D');
  });

  it('is 2 to 8 letters and digits, however spaced and in any case', () => {
    for (const ok of ['A1', 'ab', 'AB12CDEF', 'lb19 xke', ' LB19  XKE ', 'A B 1 2 C D E F']) expect(isPlate(ok), ok).toBe(true);
  });

  it('is not 1 or 9 of them, nothing, or with punctuation', () => {
    for (const bad of ['', '   ', 'A', ' A ', 'AB12CDEFG', 'LB19-XKE', 'LB19.XKE', '-LB19XKE', 'LB19XKE!', 'LB19 XKÉ']) {
      expect(isPlate(bad), bad).toBe(false);
    }
  });
});

describe('the driver form', () => {
  it('has nothing to say about a fully valid driver, numbers and booleans included', () => {
    expect(driverRecordErrors(goodDriver)).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, company_id: 3, active: true, mobile: '+44 7911 123456' } as never)).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, active: false } as never)).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, active: undefined })).toEqual({});
    for (const active of ['yes', 'no', 'true', 'false', ' no ']) expect(driverRecordErrors({ ...goodDriver, active }), active).toEqual({});
  });

  it('asks for every required field of an empty form', () => {
    expect(driverRecordErrors({})).toEqual({
      name: "Enter the driver's name.",
      mobile: "Enter the driver's mobile number.",
      licence_number: 'Enter the PHV driver licence number.',
      licensing_authority: 'Enter the licensing authority (e.g. Transport for London).',
      licence_expiry: 'Enter the licence expiry, as a date.',
      company_id: 'Choose the company the driver works for.',
    });
    expect(driverRecordErrors({ ...goodDriver, name: '   ', mobile: ' ', licence_number: '', licensing_authority: '', licence_expiry: '  ' })).toEqual({
      name: "Enter the driver's name.",
      mobile: "Enter the driver's mobile number.",
      licence_number: 'Enter the PHV driver licence number.',
      licensing_authority: 'Enter the licensing authority (e.g. Transport for London).',
      licence_expiry: 'Enter the licence expiry, as a date.',
    });
  });

  it('treats a value that is neither text nor a number as nothing typed', () => {
    expect(driverRecordErrors({ ...goodDriver, name: true, company_id: null } as never)).toEqual({
      name: "Enter the driver's name.", company_id: 'Choose the company the driver works for.',
    });
  });

  it('limits the name and licensing authority to 80 characters and the licence number to 30', () => {
    expect(driverRecordErrors({ ...goodDriver, name: chars(80), licensing_authority: chars(80), licence_number: chars(30) })).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, name: ` ${chars(80)} ` })).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, name: chars(81), licensing_authority: chars(81), licence_number: chars(31) })).toEqual({
      name: "The driver's name is at most 80 characters.",
      licensing_authority: 'The licensing authority (e.g. Transport for London) is at most 80 characters.',
      licence_number: 'The PHV driver licence number is at most 30 characters.',
    });
  });

  it('refuses a mobile that is not a phone number at all', () => {
    for (const mobile of ['not a phone', '07700', '+44 7911 123456 ext 2']) {
      expect(driverRecordErrors({ ...goodDriver, mobile }), mobile).toEqual({ mobile: 'Enter a UK mobile number, e.g. 07700 900123.' });
    }
  });

  it('refuses a phone number that is not a UK mobile: a landline, a 070 or 076 number, a number abroad', () => {
    for (const mobile of ['020 7946 0321', '+44 20 7946 0321', '070 1234 5678', '+44 7612 345678', '+33 6 12 34 56 78']) {
      const errors = driverRecordErrors({ ...goodDriver, mobile });
      expect(errors, mobile).toEqual({ mobile: NOT_UK_MOBILE });
      expect(errors.mobile).toContain('not a UK mobile');
    }
  });

  it('takes a UK mobile however it is typed, the Isle of Man included', () => {
    for (const mobile of ['07700 900123', '+44 7700 900123', '0044 7911 123456', '07624 123456', '(07911) 123-456']) {
      expect(driverRecordErrors({ ...goodDriver, mobile }), mobile).toEqual({});
    }
  });

  it('leaves the e-mail optional but checks one that is typed', () => {
    expect(driverRecordErrors({ ...goodDriver, email: '' })).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, email: '   ' })).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, email: undefined })).toEqual({});
    expect(driverRecordErrors({ ...goodDriver, email: 'sam.example.co.uk' })).toEqual({ email: EMAIL_INVALID });
    expect(driverRecordErrors({ ...goodDriver, email: 'sam@example' })).toEqual({ email: EMAIL_INVALID });
  });

  it('wants the licence expiry as a real YYYY-MM-DD date', () => {
    for (const licence_expiry of ['31/03/2027', '2027-3-31', '2027-02-30', '2027-13-01', 'soon', '2027-03-31T00:00']) {
      expect(driverRecordErrors({ ...goodDriver, licence_expiry }), licence_expiry).toEqual({
        licence_expiry: 'Enter the licence expiry as a date, e.g. 2027-03-31.',
      });
    }
    expect(driverRecordErrors({ ...goodDriver, licence_expiry: '2028-02-29' })).toEqual({});
  });

  it('wants the company as the id of one, 1 to 9 digits', () => {
    for (const company_id of ['abc', '1a', '-1', '1.5', '1234567890', ' ']) {
      expect(driverRecordErrors({ ...goodDriver, company_id }), company_id).toEqual({ company_id: 'Choose the company the driver works for.' });
    }
    for (const company_id of ['1', '123456789', ' 7 ']) expect(driverRecordErrors({ ...goodDriver, company_id }), company_id).toEqual({});
  });

  it('wants active as yes/no/true/false', () => {
    for (const active of ['maybe', 'YES', 'y', '', '1', 1, null]) {
      expect(driverRecordErrors({ ...goodDriver, active } as never), String(active)).toEqual({ active: 'Choose whether the driver is active.' });
    }
  });
});

describe('the car form', () => {
  it('has nothing to say about a fully valid car, numbers and booleans included', () => {
    expect(carRecordErrors(goodCar)).toEqual({});
    expect(carRecordErrors({
      ...goodCar, vehicle_type_id: 2, passengers: 4, suitcases: 0, wheelchair: true, company_id: 3, active: false,
    } as never)).toEqual({});
    expect(carRecordErrors({ ...goodCar, wheelchair: undefined, active: undefined })).toEqual({});
    for (const yn of ['yes', 'no', 'true', 'false']) expect(carRecordErrors({ ...goodCar, wheelchair: yn, active: yn }), yn).toEqual({});
  });

  it('asks for every field of an empty form', () => {
    expect(carRecordErrors({})).toEqual({
      registration: 'Enter the registration.',
      make: 'Enter the make, e.g. Mercedes-Benz.',
      model: 'Enter the model, e.g. E-Class.',
      colour: 'Enter the colour, e.g. Black.',
      vehicle_type_id: 'Choose the vehicle type from the fleet.',
      passengers: 'Passengers: a whole number from 1 to 16.',
      suitcases: 'Suitcases: a whole number from 0 to 16.',
      licence_number: 'Enter the PHV vehicle licence number.',
      licence_expiry: 'Enter the vehicle licence expiry, as a date.',
      mot_expiry: 'Enter the MOT expiry, as a date.',
      insurance_expiry: 'Enter the insurance expiry, as a date.',
      company_id: 'Choose the company the car belongs to.',
    });
  });

  it('wants the registration as on the plate', () => {
    expect(carRecordErrors({ ...goodCar, registration: '  ' })).toEqual({ registration: 'Enter the registration.' });
    for (const registration of ['A', 'LB19-XKE', 'AB12CDEFG']) {
      expect(carRecordErrors({ ...goodCar, registration }), registration).toEqual({ registration: 'Enter the registration as on the plate, e.g. LB19 XKE.' });
    }
    for (const registration of ['A1', 'LB19 XKE', 'AB12CDEF']) expect(carRecordErrors({ ...goodCar, registration }), registration).toEqual({});
  });

  it('limits the make and model to 40 characters, the colour and licence number to 30', () => {
    expect(carRecordErrors({ ...goodCar, make: chars(40), model: chars(40), colour: chars(30), licence_number: chars(30) })).toEqual({});
    expect(carRecordErrors({ ...goodCar, make: chars(41), model: chars(41), colour: chars(31), licence_number: chars(31) })).toEqual({
      make: 'The make, e.g. Mercedes-Benz is at most 40 characters.',
      model: 'The model, e.g. E-Class is at most 40 characters.',
      colour: 'The colour, e.g. Black is at most 30 characters.',
      licence_number: 'The PHV vehicle licence number is at most 30 characters.',
    });
  });

  it('wants the vehicle type and company as ids, 1 to 9 digits', () => {
    for (const id of ['x', '2b', '-2', '1234567890']) {
      expect(carRecordErrors({ ...goodCar, vehicle_type_id: id, company_id: id }), id).toEqual({
        vehicle_type_id: 'Choose the vehicle type from the fleet.', company_id: 'Choose the company the car belongs to.',
      });
    }
    expect(carRecordErrors({ ...goodCar, vehicle_type_id: '123456789', company_id: '123456789' })).toEqual({});
  });

  it('takes 1 to 16 passengers', () => {
    for (const passengers of ['1', '16', '01', ' 8 ']) expect(carRecordErrors({ ...goodCar, passengers }), passengers).toEqual({});
    for (const passengers of ['0', '17', '99', '-1', '2.5', 'four', '', '007']) {
      expect(carRecordErrors({ ...goodCar, passengers }), passengers).toEqual({ passengers: 'Passengers: a whole number from 1 to 16.' });
    }
  });

  it('takes 0 to 16 suitcases', () => {
    for (const suitcases of ['0', '16', '00']) expect(carRecordErrors({ ...goodCar, suitcases }), suitcases).toEqual({});
    for (const suitcases of ['17', '-1', '1.5', '', '000']) {
      expect(carRecordErrors({ ...goodCar, suitcases }), suitcases).toEqual({ suitcases: 'Suitcases: a whole number from 0 to 16.' });
    }
  });

  it('wants each document expiry as a real YYYY-MM-DD date', () => {
    expect(carRecordErrors({ ...goodCar, licence_expiry: '2027-02-30', mot_expiry: '15/01/2027', insurance_expiry: '2026-12-32' })).toEqual({
      licence_expiry: 'Enter the vehicle licence expiry as a date, e.g. 2027-03-31.',
      mot_expiry: 'Enter the MOT expiry as a date, e.g. 2027-03-31.',
      insurance_expiry: 'Enter the insurance expiry as a date, e.g. 2027-03-31.',
    });
  });

  it('wants wheelchair and active as yes/no/true/false', () => {
    expect(carRecordErrors({ ...goodCar, wheelchair: 'sometimes', active: 'maybe' })).toEqual({
      wheelchair: 'Choose whether the car takes a wheelchair.', active: 'Choose whether the car is in service.',
    });
  });
});

describe('the records the forms make', () => {
  it('keeps a driver with the mobile in E.164, the licence number in capitals and the company as a number', () => {
    expect(driverRecord({ ...goodDriver, name: '  Sam Patel ', email: ' sam@example.co.uk ', active: undefined })).toEqual({
      name: 'Sam Patel', mobile: '+447700900123', email: 'sam@example.co.uk', licence_number: 'PD123456',
      licensing_authority: 'Transport for London', licence_expiry: '2027-03-31', company_id: 3, active: true,
    });
    expect(driverRecord({ ...goodDriver, mobile: '07911 123456' }).mobile).toBe('+447911123456');
    expect(driverRecord({ ...goodDriver, company_id: 12 } as never).company_id).toBe(12);
  });

  it('makes a driver active unless the form says no', () => {
    const activeOf = (active: unknown) => driverRecord({ ...goodDriver, active } as never).active;
    expect(activeOf(undefined)).toBe(true);
    expect(activeOf('yes')).toBe(true);
    expect(activeOf('true')).toBe(true);
    expect(activeOf(true)).toBe(true);
    expect(activeOf('no')).toBe(false);
    expect(activeOf('false')).toBe(false);
    expect(activeOf(false)).toBe(false);
  });

  it('keeps a car with its registration as on the plate, its licence number in capitals and its counts as numbers', () => {
    expect(carRecord({ ...goodCar, make: ' Mercedes-Benz ', active: undefined })).toEqual({
      registration: 'LB19 XKE', make: 'Mercedes-Benz', model: 'E-Class', colour: 'Black', vehicle_type_id: 2, passengers: 4, suitcases: 3,
      wheelchair: false, licence_number: 'PV12345', licence_expiry: '2027-03-31', mot_expiry: '2027-01-15', insurance_expiry: '2026-12-31',
      company_id: 3, active: true,
    });
    expect(carRecord({ ...goodCar, registration: ' a123bcd ' }).registration).toBe('A123 BCD');
    expect(carRecord({ ...goodCar, suitcases: '0' }).suitcases).toBe(0);
  });

  it('takes a wheelchair only on yes or true, and puts a car in service unless the form says no', () => {
    const car = (over: Record<string, unknown>) => carRecord({ ...goodCar, ...over } as never);
    expect(car({ wheelchair: 'yes' }).wheelchair).toBe(true);
    expect(car({ wheelchair: 'true' }).wheelchair).toBe(true);
    expect(car({ wheelchair: true }).wheelchair).toBe(true);
    expect(car({ wheelchair: 'no' }).wheelchair).toBe(false);
    expect(car({ wheelchair: 'false' }).wheelchair).toBe(false);
    expect(car({ wheelchair: undefined }).wheelchair).toBe(false);
    expect(car({ active: undefined }).active).toBe(true);
    expect(car({ active: 'yes' }).active).toBe(true);
    expect(car({ active: 'no' }).active).toBe(false);
    expect(car({ active: false }).active).toBe(false);
  });

  it('reads yes as the form checks it, spaces around it and all: a checked " yes " is never stored as no', () => {
    expect(carRecordErrors({ ...goodCar, wheelchair: ' yes ', active: ' yes ' } as never)).toEqual({});
    expect(carRecord({ ...goodCar, wheelchair: ' yes ', active: ' yes ' } as never)).toMatchObject({ wheelchair: true, active: true });
    expect(carRecord({ ...goodCar, wheelchair: ' no ' } as never).wheelchair).toBe(false);
  });
});

describe("a document's expiry", () => {
  it('counts whole days from today, negative once passed, across months, leap days and clock changes', () => {
    expect(daysUntil('2026-12-12', '2026-12-12')).toBe(0);
    expect(daysUntil('2026-12-13', '2026-12-12')).toBe(1);
    expect(daysUntil('2026-12-11', '2026-12-12')).toBe(-1);
    expect(daysUntil('2028-03-01', '2028-02-28')).toBe(2);
    expect(daysUntil('2026-03-30', '2026-03-28')).toBe(2);
    expect(daysUntil('2027-01-01', '2026-12-31')).toBe(1);
  });

  it('is expired the day after it, soon from 30 days before to the day itself, and nothing earlier', () => {
    expect(EXPIRY_WARNING_DAYS).toBe(30);
    expect(expiryFlag('2026-12-12', '2026-12-13')).toBe('expired');
    expect(expiryFlag('2026-12-12', '2027-06-01')).toBe('expired');
    expect(expiryFlag('2026-12-12', '2026-12-12')).toBe('soon');
    expect(expiryFlag('2026-12-12', '2026-12-11')).toBe('soon');
    expect(expiryFlag('2026-12-12', '2026-11-12')).toBe('soon');
    expect(expiryFlag('2026-12-12', '2026-11-11')).toBe(null);
    expect(expiryFlag('2026-12-12', '2025-12-12')).toBe(null);
  });

  it('names each document of a driver and of a car', () => {
    expect(driverDocuments({ licence_expiry: '2027-03-31' })).toEqual([{ what: 'PHV driver licence', expiry: '2027-03-31' }]);
    expect(carDocuments({ licence_expiry: '2027-03-31', mot_expiry: '2027-01-15', insurance_expiry: '2026-12-31' })).toEqual([
      { what: 'PHV vehicle licence', expiry: '2027-03-31' }, { what: 'MOT', expiry: '2027-01-15' }, { what: 'insurance', expiry: '2026-12-31' },
    ]);
  });

  it('is noted in words on the record pages: expired, today, in 1 day, in N days, and not at all beyond 30 days', () => {
    const note = (expiry: string, today: string) => expiryNotes([{ what: 'MOT', expiry }], today);
    expect(note('2026-12-12', '2026-12-14')).toEqual([{ flag: 'expired', text: 'MOT expired Sat, 12 Dec 2026' }]);
    expect(note('2026-12-12', '2026-12-13')).toEqual([{ flag: 'expired', text: 'MOT expired Sat, 12 Dec 2026' }]);
    expect(note('2026-12-12', '2026-12-12')).toEqual([{ flag: 'soon', text: 'MOT expires today (Sat, 12 Dec 2026)' }]);
    expect(note('2026-12-12', '2026-12-11')).toEqual([{ flag: 'soon', text: 'MOT expires in 1 day (Sat, 12 Dec 2026)' }]);
    expect(note('2026-12-12', '2026-12-10')).toEqual([{ flag: 'soon', text: 'MOT expires in 2 days (Sat, 12 Dec 2026)' }]);
    expect(note('2026-12-12', '2026-11-12')).toEqual([{ flag: 'soon', text: 'MOT expires in 30 days (Sat, 12 Dec 2026)' }]);
    expect(note('2026-12-12', '2026-11-11')).toEqual([]);
  });

  it('notes only the documents that need it, in their order', () => {
    const car = { licence_expiry: '2026-12-01', mot_expiry: '2027-06-30', insurance_expiry: '2026-12-20' };
    expect(expiryNotes(carDocuments(car), '2026-12-12')).toEqual([
      { flag: 'expired', text: 'PHV vehicle licence expired Tue, 1 Dec 2026' },
      { flag: 'soon', text: 'insurance expires in 8 days (Sun, 20 Dec 2026)' },
    ]);
    expect(expiryNotes([], '2026-12-12')).toEqual([]);
  });
});

describe('who may drive which booking', () => {
  const needs: DispatchNeeds = { company_id: 1, company_name: 'Acme Cars', pickup_date: '2026-12-12', passengers: 3, wheelchair: false };
  const driver: DispatchDriver = { name: 'Sam Patel', company_id: 1, company_name: 'Acme Cars', active: true, licence_expiry: '2027-03-31' };
  const car: DispatchCar = {
    registration: 'LB19 XKE', company_id: 1, company_name: 'Acme Cars', active: true, passengers: 4, wheelchair: false,
    licence_expiry: '2027-03-31', mot_expiry: '2027-01-15', insurance_expiry: '2026-12-31',
  };
  const problems = (n: Partial<DispatchNeeds>, d: Partial<DispatchDriver>, c: Partial<DispatchCar>) =>
    dispatchProblems({ ...needs, ...n }, { ...driver, ...d }, { ...car, ...c });

  it('finds no problem with an active driver and car of the booking company, with documents in date and seats enough', () => {
    expect(problems({}, {}, {})).toEqual([]);
  });

  it('refuses a driver who is not active', () => {
    expect(problems({}, { active: false }, {})).toEqual([{ field: 'driver_id', message: 'Sam Patel is not active on the record.' }]);
  });

  it('refuses a driver of another company', () => {
    expect(problems({}, { company_id: 2, company_name: 'Other Co' }, {})).toEqual([
      { field: 'driver_id', message: 'Sam Patel drives for Other Co, not Acme Cars, whose booking this is.' },
    ]);
  });

  it("refuses a driver whose licence ends the day before the pickup, and takes one whose licence ends on the pickup day", () => {
    expect(problems({}, { licence_expiry: '2026-12-11' }, {})).toEqual([
      { field: 'driver_id', message: "Sam Patel's PHV driver licence expired on Fri, 11 Dec 2026, before the pickup on Sat, 12 Dec 2026." },
    ]);
    expect(problems({}, { licence_expiry: '2026-12-12' }, {})).toEqual([]);
  });

  it('refuses a car that is not in service', () => {
    expect(problems({}, {}, { active: false })).toEqual([{ field: 'car_id', message: 'LB19 XKE is not in service on the record.' }]);
  });

  it('refuses a car of another company', () => {
    expect(problems({}, {}, { company_id: 2, company_name: 'Other Co' })).toEqual([
      { field: 'car_id', message: 'LB19 XKE belongs to Other Co, not Acme Cars, whose booking this is.' },
    ]);
  });

  it("refuses a car whose vehicle licence, MOT or insurance ends before the pickup, each on its own, and takes one ending that day", () => {
    const docs = [['licence_expiry', 'PHV vehicle licence'], ['mot_expiry', 'MOT'], ['insurance_expiry', 'insurance']] as const;
    for (const [field, what] of docs) {
      expect(problems({}, {}, { [field]: '2026-12-11' }), field).toEqual([
        { field: 'car_id', message: `LB19 XKE's ${what} expired on Fri, 11 Dec 2026, before the pickup on Sat, 12 Dec 2026.` },
      ]);
      expect(problems({}, {}, { [field]: '2026-12-12' }), field).toEqual([]);
    }
  });

  it('refuses a car that is not wheelchair-accessible for a booking that asks for one, and no other', () => {
    expect(problems({ wheelchair: true }, {}, {})).toEqual([
      { field: 'car_id', message: 'This booking asks for a wheelchair-accessible vehicle and LB19 XKE is not one.' },
    ]);
    expect(problems({ wheelchair: true }, {}, { wheelchair: true })).toEqual([]);
    expect(problems({ wheelchair: false }, {}, { wheelchair: true })).toEqual([]);
  });

  it('refuses a car with fewer seats than the booking has passengers, and takes one with just enough', () => {
    expect(problems({ passengers: 5 }, {}, { passengers: 4 })).toEqual([
      { field: 'car_id', message: 'LB19 XKE takes 4 passengers; this booking is for 5.' },
    ]);
    expect(problems({ passengers: 2 }, {}, { passengers: 1 })).toEqual([
      { field: 'car_id', message: 'LB19 XKE takes 1 passenger; this booking is for 2.' },
    ]);
    expect(problems({ passengers: 4 }, {}, { passengers: 4 })).toEqual([]);
    expect(problems({ passengers: 1 }, {}, { passengers: 1 })).toEqual([]);
  });

  it('lists every problem at once, the driver first', () => {
    expect(problems(
      { wheelchair: true, passengers: 6, pickup_date: '2027-01-02' },
      { active: false, company_id: 2, company_name: 'Other Co', licence_expiry: '2027-01-01' },
      { active: false, company_id: 2, company_name: 'Other Co', licence_expiry: '2027-01-01', mot_expiry: '2026-12-31', insurance_expiry: '2026-11-30', passengers: 4 },
    )).toEqual([
      { field: 'driver_id', message: 'Sam Patel is not active on the record.' },
      { field: 'driver_id', message: 'Sam Patel drives for Other Co, not Acme Cars, whose booking this is.' },
      { field: 'driver_id', message: "Sam Patel's PHV driver licence expired on Fri, 1 Jan 2027, before the pickup on Sat, 2 Jan 2027." },
      { field: 'car_id', message: 'LB19 XKE is not in service on the record.' },
      { field: 'car_id', message: 'LB19 XKE belongs to Other Co, not Acme Cars, whose booking this is.' },
      { field: 'car_id', message: "LB19 XKE's PHV vehicle licence expired on Fri, 1 Jan 2027, before the pickup on Sat, 2 Jan 2027." },
      { field: 'car_id', message: "LB19 XKE's MOT expired on Thu, 31 Dec 2026, before the pickup on Sat, 2 Jan 2027." },
      { field: 'car_id', message: "LB19 XKE's insurance expired on Mon, 30 Nov 2026, before the pickup on Sat, 2 Jan 2027." },
      { field: 'car_id', message: 'This booking asks for a wheelchair-accessible vehicle and LB19 XKE is not one.' },
      { field: 'car_id', message: 'LB19 XKE takes 4 passengers; this booking is for 6.' },
    ]);
  });
});

describe('the assign form', () => {
  it('asks for both a driver and a car when neither is chosen', () => {
    const both = { driver_id: 'Choose a driver from the record.', car_id: 'Choose a car from the record.' };
    expect(assignErrors({})).toEqual(both);
    expect(assignErrors({ driver_id: '', car_id: ' ' })).toEqual(both);
  });

  it('refuses ids that are not 1 to 9 digits, each on its own', () => {
    expect(assignErrors({ driver_id: 'abc', car_id: '7' })).toEqual({ driver_id: 'Choose a driver from the record.' });
    expect(assignErrors({ driver_id: '7', car_id: '7x' })).toEqual({ car_id: 'Choose a car from the record.' });
    expect(assignErrors({ driver_id: '-1', car_id: '1234567890' })).toEqual({
      driver_id: 'Choose a driver from the record.', car_id: 'Choose a car from the record.',
    });
  });

  it('takes a driver and a car by id, as text or numbers', () => {
    expect(assignErrors({ driver_id: '12', car_id: '123456789' })).toEqual({});
    expect(assignErrors({ driver_id: 12, car_id: 3 } as never)).toEqual({});
    expect(assignErrors({ driver_id: ' 12 ', car_id: ' 3 ' })).toEqual({});
  });
});

describe('the copy a booking keeps of its dispatch', () => {
  it('copies the driver, the car, who dispatched it and when', () => {
    const d = { ...driverRecord(goodDriver), id: 11 };
    const c = { ...carRecord(goodCar), id: 22 };
    const at = new Date('2026-12-12T08:30:00Z');
    expect(dispatchCopy(d, c, 'dispatcher@example.co.uk', at)).toEqual({
      name: 'Sam Patel', mobile: '+447700900123', vehicle: 'Mercedes-Benz E-Class', registration: 'LB19 XKE',
      driver_id: 11, car_id: 22, licence_number: 'PD123456', licensing_authority: 'Transport for London', colour: 'Black',
      vehicle_licence_number: 'PV12345', dispatched_by: 'dispatcher@example.co.uk', dispatched_at: '2026-12-12T08:30:00.000Z',
    });
  });
});
