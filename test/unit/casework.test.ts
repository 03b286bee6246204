// Issue 43 §3: the rules of the Complaints and Lost property forms (src/domain/casework.ts), at their edges: the
// field each refusal names, the dates that may not be in the future, the lengths, what is stored, and who may do what.
import { describe, expect, it } from 'vitest';
import {
  LONG_TEXT, SHORT_TEXT, bookingReferenceOf, closeErrors, complaintErrors, entryNumber, entryValues, foundItemErrors, isRegister,
  lostItemErrors, mayClose, mayReportFound, needsBooking, COMPLAINT_FIELDS, LOST_ITEM_FIELDS, type ComplaintInput, type LostItemInput,
} from '../../src/domain/casework';

const TODAY = '2030-06-15';
const complaint = { source: 'phone', nature: 'Late.' };
const found = { kind: 'found', source: 'driver', description: 'A glove', found_on: TODAY };
const reported = { kind: 'reported', source: 'phone', description: 'A phone', reported_on: TODAY };

describe('the complaint form', () => {
  it('needs only the nature and how it came; everything else may be left empty', () => {
    expect(complaintErrors(complaint, TODAY)).toEqual({});
    expect(complaintErrors({ source: 'phone' }, TODAY)).toEqual({ nature: 'Enter the nature of the complaint.' });
    expect(complaintErrors({ nature: 'Late.' }, TODAY)).toEqual({ source: 'Choose how it reached the office.' });
  });

  it('takes a booking reference as the site writes it, in any case and spacing, or none', () => {
    expect(complaintErrors({ ...complaint, booking_reference: 'bk 7q2m 9xkd' }, TODAY)).toEqual({});
    expect(complaintErrors({ ...complaint, booking_reference: 'BK-7Q2M9XK' }, TODAY)).toHaveProperty('booking_reference');
    expect(bookingReferenceOf(' bk-7q2m9xkd ')).toBe('BK-7Q2M9XKD');
    expect(bookingReferenceOf('')).toBe('');
  });

  it('keeps texts within their lengths, exactly at the edge', () => {
    expect(complaintErrors({ ...complaint, nature: 'x'.repeat(LONG_TEXT) }, TODAY)).toEqual({});
    expect(complaintErrors({ ...complaint, nature: 'x'.repeat(LONG_TEXT + 1) }, TODAY).nature).toBe(`Keep the nature of the complaint to ${LONG_TEXT} characters at most (this is ${LONG_TEXT + 1}).`);
    expect(complaintErrors({ ...complaint, contact_name: 'x'.repeat(SHORT_TEXT) }, TODAY)).toEqual({});
    expect(complaintErrors({ ...complaint, contact_name: 'x'.repeat(SHORT_TEXT + 1) }, TODAY)).toHaveProperty('contact_name');
    for (const field of ['investigation', 'action_taken', 'notes']) {
      expect(complaintErrors({ ...complaint, [field]: 'x'.repeat(LONG_TEXT + 1) }, TODAY)).toHaveProperty(field);
    }
  });

  it("checks the complainant's e-mail and phone when given", () => {
    expect(complaintErrors({ ...complaint, contact_email: 'a@b.co', contact_phone: '+44 7700 900123' }, TODAY)).toEqual({});
    expect(Object.keys(complaintErrors({ ...complaint, contact_email: 'a@b', contact_phone: '12' }, TODAY))).toEqual(['contact_email', 'contact_phone']);
  });

  it('takes a real date for the journey', () => {
    expect(complaintErrors({ ...complaint, booking_date: '2030-02-29' }, TODAY)).toHaveProperty('booking_date');
    expect(complaintErrors({ ...complaint, booking_date: '2030-06-20' }, TODAY)).toEqual({});
  });
});

describe('the lost property form', () => {
  it('asks of an item found the date it was found, never after today', () => {
    expect(lostItemErrors(found, TODAY)).toEqual({});
    expect(lostItemErrors({ ...found, found_on: '' }, TODAY)).toEqual({ found_on: 'Enter the date it was found.' });
    expect(lostItemErrors({ ...found, found_on: '2030-06-16' }, TODAY)).toEqual({ found_on: 'The date it was found cannot be in the future.' });
    expect(lostItemErrors({ ...found, found_on: '15/06/2030' }, TODAY)).toHaveProperty('found_on');
  });

  it('asks of an item reported lost the date it was reported; the date lost, when given, is not after today', () => {
    expect(lostItemErrors(reported, TODAY)).toEqual({});
    expect(lostItemErrors({ ...reported, reported_on: '' }, TODAY)).toEqual({ reported_on: 'Enter the date it was reported.' });
    expect(lostItemErrors({ ...reported, reported_on: '2030-06-16' }, TODAY)).toHaveProperty('reported_on');
    expect(lostItemErrors({ ...reported, lost_on: '2030-06-16' }, TODAY)).toEqual({ lost_on: 'The date it was lost cannot be in the future.' });
    expect(lostItemErrors({ ...reported, lost_on: TODAY }, TODAY)).toEqual({});
  });

  it('needs a kind and a description, and keeps each text within its length', () => {
    expect(lostItemErrors({ ...found, kind: 'stolen' }, TODAY)).toHaveProperty('kind');
    expect(lostItemErrors({ ...found, description: '   ' }, TODAY)).toEqual({ description: 'Enter a description of the item.' });
    for (const field of ['found_place', 'lost_place']) {
      expect(lostItemErrors({ ...found, [field]: 'x'.repeat(SHORT_TEXT + 1) }, TODAY)).toHaveProperty(field);
    }
    for (const field of ['return_attempts', 'disposal', 'searches', 'notes', 'description']) {
      expect(lostItemErrors({ ...found, [field]: 'x'.repeat(LONG_TEXT + 1) }, TODAY)).toHaveProperty(field);
    }
  });
});

describe('closing, the driver and who may do what', () => {
  it('closing needs an outcome', () => {
    expect(closeErrors({ outcome: 'Apologised.' })).toEqual({});
    expect(closeErrors({ outcome: ' ' })).toEqual({ outcome: 'Enter the outcome.' });
    expect(closeErrors({})).toHaveProperty('outcome');
    expect(closeErrors({ outcome: null })).toHaveProperty('outcome');
  });

  it("the driver's found item needs what was found", () => {
    expect(foundItemErrors({ description: 'Keys', found_place: '' })).toEqual({});
    expect(foundItemErrors({ description: '' })).toEqual({ description: 'Enter what you found.' });
    expect(foundItemErrors({ description: 'Keys', found_place: 'x'.repeat(SHORT_TEXT + 1) })).toHaveProperty('found_place');
  });

  it('a driver reports a found item once the passenger has been on board, on a job not cancelled', () => {
    expect(['assigned', 'accepted', 'on_way', 'arrived', 'on_board', 'completed', 'no_show', 'declined']
      .filter((status) => mayReportFound({ status, cancelled: false }))).toEqual(['on_board', 'completed']);
    expect(mayReportFound({ status: 'completed', cancelled: true })).toBe(false);
  });

  it('the office closes; a company member opens entries only about a booking', () => {
    expect(['admin', 'dispatcher', 'company'].map(mayClose)).toEqual([true, true, false]);
    expect(['admin', 'dispatcher', 'company'].map(needsBooking)).toEqual([false, false, true]);
  });

  it('stores what was typed trimmed, the reference and phone as the site writes them, empty dates as none', () => {
    expect(entryValues<ComplaintInput>({ booking_reference: 'bk7q2m9xkd', contact_phone: '07700 900123', nature: ' Late ', booking_date: '' }, COMPLAINT_FIELDS))
      .toMatchObject({ booking_reference: 'BK-7Q2M9XKD', contact_phone: '+447700900123', nature: 'Late', booking_date: null, notes: '' });
    expect(Object.keys(entryValues<LostItemInput>({}, LOST_ITEM_FIELDS))).toEqual(LOST_ITEM_FIELDS);
  });

  it('names entries and registers', () => {
    expect([entryNumber('complaints', 12), entryNumber('lost-property', 12345)]).toEqual(['C-0012', 'LP-12345']);
    expect(['complaints', 'lost-property', 'toString', 'lost_property'].map(isRegister)).toEqual([true, true, false, false]);
  });
});
