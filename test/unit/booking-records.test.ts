// Issue 43 §2 (the booking record a licensing officer asks for, src/domain/bookingRecords.ts): how a booking was taken
// and who took it, the range of days the console's Records page and its CSV take (a quarter at most, each day a real
// UK calendar day, the last not before the first), the range an address asks for and the address a range keeps, the
// record's way of writing a date, and the CSV's columns: their names, their order and what each is read from.
import { describe, expect, it } from 'vitest';
import {
  BOOKED_VIA, BOOKED_VIA_LABELS, RECORDS_MAX_DAYS, bookedBy, recordColumns, recordDate, recordsRangeOf, recordsRangeProblem,
  searchOfRecordsRange, type BookingRecord,
} from '../../src/domain/bookingRecords';

const range = (from: string, to: string) => recordsRangeProblem({ from, to });
const TOO_LONG = { field: 'to', message: 'Choose at most 92 days at a time.' };
const TO_BEFORE_FROM = { field: 'to', message: 'The last day is before the first.' };
const NO_FIRST = { field: 'from', message: 'Choose the first day.' };
const NO_LAST = { field: 'to', message: 'Choose the last day.' };

/** A record with every field its own value, so that a column reading the wrong field shows. */
const record: BookingRecord = {
  reference: 'BK-20261124-0042', status: 'completed',
  booked_at: '20/11/2026 14:05', booked_via: 'phone', booked_by: 'Priya Shah (office)',
  passenger: 'Oliver Bennett', passengers: 3,
  pickup_date: '24/11/2026', pickup_time: '06:30', pickup_place: '10 Downing Street, London SW1A 2AA',
  destination: 'Heathrow Airport Terminal 5',
  return_journey: '27/11/2026 18:00 from Heathrow Airport Terminal 5',
  fare_quoted: '85.00', fare_charged: '95.50',
  fare_changes: ['Price set by hand: 95.50 (waiting at the terminal)', 'Refund 0.00'],
  vehicle_type: 'Executive saloon',
  driver: 'Sam Patel', driver_licence: 'PD123456', vehicle: 'Mercedes-Benz E-Class, Black', registration: 'LB19 XKE',
  dispatched_by: 'Tom Reed', dispatched_at: '23/11/2026 19:40',
  company: 'Albion Cars Ltd',
  variations: ['21/11/2026 09:12 pickup time 06:00 to 06:30 by Priya Shah', '22/11/2026 10:00 passengers 2 to 3 by the passenger'],
};

const csvRow = (r: BookingRecord) => Object.fromEntries(recordColumns().map(([name, read]) => [name, read(r)]));

describe('how a booking was taken', () => {
  it('is the website, a signed-in corporate passenger or the telephone, each with its label', () => {
    expect(BOOKED_VIA).toEqual(['web', 'account', 'phone']);
    expect(BOOKED_VIA_LABELS).toEqual({ web: 'Website', account: 'Corporate account', phone: 'Telephone' });
  });

  it('names who took it: the office by the staff member\'s name, else the passenger, online or signed in', () => {
    expect(bookedBy('phone', 'Priya Shah')).toBe('Priya Shah (office)');
    expect(bookedBy('phone', null)).toBe('The office');
    expect(bookedBy('phone', '')).toBe('The office');
    expect(bookedBy('account', null)).toBe('The passenger, signed in');
    expect(bookedBy('web', null)).toBe('The passenger, online');
    // A staff name recorded on a booking the passenger made does not make it the office's.
    expect(bookedBy('account', 'Priya Shah')).toBe('The passenger, signed in');
    expect(bookedBy('web', 'Priya Shah')).toBe('The passenger, online');
  });
});

describe('the range of days the Records page shows', () => {
  it('is a quarter at most: 92 days counting both ends, and one more is refused on the last day', () => {
    expect(RECORDS_MAX_DAYS).toBe(92);
    // 1 January to 2 April 2026 is 31 + 28 + 31 + 2 = 92 days.
    expect(range('2026-01-01', '2026-04-02')).toBeNull();
    expect(range('2026-01-01', '2026-04-03')).toEqual(TOO_LONG);
    expect(range('2026-01-01', '2026-04-01')).toBeNull();
    expect(range('2026-01-01', '2026-12-31')).toEqual(TOO_LONG);
  });

  it('counts a leap year\'s 29 February as a day', () => {
    // 1 January to 1 April 2028 is 31 + 29 + 31 + 1 = 92 days.
    expect(range('2028-01-01', '2028-04-01')).toBeNull();
    expect(range('2028-01-01', '2028-04-02')).toEqual(TOO_LONG);
  });

  it('counts whole days across the clocks\' changes, as the UK calendar does', () => {
    // 29 March 2026 (BST starts) to 28 June is 3 + 30 + 31 + 28 = 92 days; 25 October 2026 (GMT again) likewise.
    expect(range('2026-03-29', '2026-06-28')).toBeNull();
    expect(range('2026-03-29', '2026-06-29')).toEqual(TOO_LONG);
    expect(range('2026-10-25', '2027-01-24')).toBeNull();
    expect(range('2026-10-25', '2027-01-25')).toEqual(TOO_LONG);
    expect(range('2026-03-28', '2026-03-30')).toBeNull();
    expect(range('2026-10-24', '2026-10-26')).toBeNull();
  });

  it('may be one day, or run over a month\'s and a year\'s end', () => {
    expect(range('2026-11-24', '2026-11-24')).toBeNull();
    expect(range('2026-01-31', '2026-02-01')).toBeNull();
    expect(range('2026-12-31', '2027-01-01')).toBeNull();
    expect(range('2026-11-15', '2027-02-14')).toBeNull();
    expect(range('2026-11-15', '2027-02-15')).toEqual(TOO_LONG);
  });

  it('refuses a last day before the first, by one day or over a month\'s or a year\'s end', () => {
    expect(range('2026-11-24', '2026-11-23')).toEqual(TO_BEFORE_FROM);
    expect(range('2026-02-01', '2026-01-31')).toEqual(TO_BEFORE_FROM);
    expect(range('2027-01-01', '2026-12-31')).toEqual(TO_BEFORE_FROM);
    // However far before: a last day a year before the first is not "too many days".
    expect(range('2027-11-24', '2026-11-24')).toEqual(TO_BEFORE_FROM);
  });

  it('asks for the first day when it is not a calendar day, before looking at the last', () => {
    for (const from of ['', '2026-02-29', '2026-13-01', '2026-04-31', '2026-11-00', '24/11/2026', '2026-11-24T00:00', ' 2026-11-24', 'today']) {
      expect(range(from, '2026-11-24'), from).toEqual(NO_FIRST);
    }
    expect(range('', '')).toEqual(NO_FIRST);
    expect(range('2026-02-30', 'not a day')).toEqual(NO_FIRST);
  });

  it('asks for the last day when it is not a calendar day', () => {
    for (const to of ['', '2026-02-29', '2026-13-01', '2026-06-31', '2026-11-24 ', '2026-1-24', 'tomorrow']) {
      expect(range('2026-11-24', to), to).toEqual(NO_LAST);
    }
    expect(range('2028-02-29', '2028-02-29')).toBeNull();
  });
});

describe('the range an address asks for', () => {
  const today = '2026-11-24';

  it('is the days it names, with or without its question mark', () => {
    expect(recordsRangeOf('?from=2026-10-01&to=2026-10-31', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(recordsRangeOf('from=2026-10-01&to=2026-10-31', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(recordsRangeOf('?to=2026-10-31&from=2026-10-01', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });

  it('is today when it names no first day, and the first day alone when it names no last', () => {
    expect(recordsRangeOf('', today)).toEqual({ from: today, to: today });
    expect(recordsRangeOf('?', today)).toEqual({ from: today, to: today });
    expect(recordsRangeOf('?from=&to=', today)).toEqual({ from: today, to: today });
    expect(recordsRangeOf('?from=2026-10-01', today)).toEqual({ from: '2026-10-01', to: '2026-10-01' });
    expect(recordsRangeOf('?from=2026-10-01&to=', today)).toEqual({ from: '2026-10-01', to: '2026-10-01' });
    expect(recordsRangeOf('?to=2026-12-01', today)).toEqual({ from: today, to: '2026-12-01' });
  });

  it('is taken as typed, for recordsRangeProblem to judge', () => {
    expect(recordsRangeOf('?from=yesterday&to=2026-02-30', today)).toEqual({ from: 'yesterday', to: '2026-02-30' });
  });

  it('is kept in the address bar as the same two days, and read back from it unchanged', () => {
    expect(searchOfRecordsRange({ from: '2026-10-01', to: '2026-10-31' })).toBe('?from=2026-10-01&to=2026-10-31');
    const r = { from: '2026-12-31', to: '2027-01-01' };
    expect(recordsRangeOf(searchOfRecordsRange(r), today)).toEqual(r);
  });
});

describe('a date on the record', () => {
  it('is written day/month/year', () => {
    expect(recordDate('2026-11-24')).toBe('24/11/2026');
    expect(recordDate('2027-01-05')).toBe('05/01/2027');
    expect(recordDate('2028-02-29')).toBe('29/02/2028');
    expect(recordDate('2026-12-31')).toBe('31/12/2026');
  });
});

describe('the CSV of the records', () => {
  it('has these 24 columns in this order', () => {
    expect(recordColumns().map(([name]) => name)).toEqual([
      'reference', 'status', 'booked_at', 'booked_via', 'booked_by', 'passenger', 'passengers', 'pickup_date', 'pickup_time',
      'pickup_place', 'main_destination', 'return_journey', 'fare_quoted_gbp', 'fare_charged_gbp', 'fare_changes', 'vehicle_type',
      'driver', 'driver_licence', 'vehicle', 'registration', 'dispatched_by', 'dispatched_at', 'company', 'variations',
    ]);
  });

  it('reads each column from its own field, how it was booked as its label and the lists joined with a bar', () => {
    expect(csvRow(record)).toEqual({
      reference: 'BK-20261124-0042', status: 'completed', booked_at: '20/11/2026 14:05', booked_via: 'Telephone',
      booked_by: 'Priya Shah (office)', passenger: 'Oliver Bennett', passengers: 3, pickup_date: '24/11/2026', pickup_time: '06:30',
      pickup_place: '10 Downing Street, London SW1A 2AA', main_destination: 'Heathrow Airport Terminal 5',
      return_journey: '27/11/2026 18:00 from Heathrow Airport Terminal 5', fare_quoted_gbp: '85.00', fare_charged_gbp: '95.50',
      fare_changes: 'Price set by hand: 95.50 (waiting at the terminal) | Refund 0.00', vehicle_type: 'Executive saloon',
      driver: 'Sam Patel', driver_licence: 'PD123456', vehicle: 'Mercedes-Benz E-Class, Black', registration: 'LB19 XKE',
      dispatched_by: 'Tom Reed', dispatched_at: '23/11/2026 19:40', company: 'Albion Cars Ltd',
      variations: '21/11/2026 09:12 pickup time 06:00 to 06:30 by Priya Shah | 22/11/2026 10:00 passengers 2 to 3 by the passenger',
    });
  });

  it('writes how it was booked as the label of each way', () => {
    const via = (booked_via: BookingRecord['booked_via']) => csvRow({ ...record, booked_via }).booked_via;
    expect([via('web'), via('account'), via('phone')]).toEqual(['Website', 'Corporate account', 'Telephone']);
  });

  it('leaves a column empty for what a booking does not have: no return, no dispatch, no changes', () => {
    const undispatched: BookingRecord = {
      ...record, status: 'confirmed', return_journey: null, fare_changes: [], driver: null, driver_licence: null, vehicle: null,
      registration: null, dispatched_by: null, dispatched_at: null, variations: [],
    };
    expect(csvRow(undispatched)).toMatchObject({
      return_journey: '', fare_changes: '', driver: '', driver_licence: '', vehicle: '', registration: '', dispatched_by: '',
      dispatched_at: '', variations: '',
    });
  });

  it('writes a list of one as that one entry, with no bar', () => {
    const row = csvRow({ ...record, fare_changes: ['Refund 10.00'], variations: ['Cancelled by the office'] });
    expect(row.fare_changes).toBe('Refund 10.00');
    expect(row.variations).toBe('Cancelled by the office');
  });
});
