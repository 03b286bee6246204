// Issue 39 (decision 49): a booking's deadlines count from the pickup it was booked for, so moving the pickup later
// inside the last 24 hours buys no free cancelling back; the change form's words before saving; the e-mail changes a
// booking may make; and visitor text in mail that no mail client makes a link of.
import { describe, expect, it } from 'vitest';
import {
  bookedInsideWindow, cancelDeadline, changeDeadline, deadlinePickup, moveWords, noFreeCancelWords, passengerMay, ukMoment,
} from '../../src/domain/manageRules';
import { CHANGE_MESSAGES, MAX_EMAIL_CHANGES, emailMoved, pickupOfValues } from '../../src/domain/manageChanges';
import { defuse } from '../../src/server/mail/templates';

const HOUR = 3_600_000;
const booked = new Date('2030-09-12T06:15:00Z'); // 07:15 BST on Thursday 12 September
const dayLater = new Date(booked.getTime() + 24 * HOUR);
const dayEarlier = new Date(booked.getTime() - 24 * HOUR);

describe('the pickup the deadlines count from', () => {
  it('is the one booked while the pickup has not moved, or moved later; the new one when it moved earlier', () => {
    expect(deadlinePickup({ pickupAt: booked, originalPickupAt: booked })).toEqual(booked);
    expect(deadlinePickup({ pickupAt: dayLater, originalPickupAt: booked })).toEqual(booked);
    expect(deadlinePickup({ pickupAt: dayEarlier, originalPickupAt: booked })).toEqual(dayEarlier);
  });

  it('keeps both deadlines where they were when the pickup moves later, and brings them forward when it moves earlier', () => {
    const later = { pickupAt: dayLater, originalPickupAt: booked };
    expect(ukMoment(cancelDeadline(later, {}))).toBe('Wednesday 11 September 2030 at 07:15');
    expect(ukMoment(changeDeadline(later, {}))).toBe('Thursday 12 September 2030 at 05:15');
    const earlier = { pickupAt: dayEarlier, originalPickupAt: booked };
    expect(ukMoment(cancelDeadline(earlier, {}))).toBe('Tuesday 10 September 2030 at 07:15');
    expect(ukMoment(changeDeadline(earlier, { CHANGE_CUTOFF_HOURS: '6' }))).toBe('Wednesday 11 September 2030 at 01:15');
  });

  it('refuses free cancelling and changes after the booked deadlines, however far the pickup was moved (the dodge of issue 39)', () => {
    const moved = { status: 'confirmed', pickupAt: new Date(booked.getTime() + 7 * 24 * HOUR), originalPickupAt: booked };
    expect(passengerMay(moved, {}, new Date(booked.getTime() - 24 * HOUR - 1))).toEqual({ change: true, cancel: true });
    expect(passengerMay(moved, {}, new Date(booked.getTime() - 24 * HOUR))).toEqual({ change: true, cancel: false });
    expect(passengerMay(moved, {}, new Date(booked.getTime() - 2 * HOUR - 1))).toEqual({ change: true, cancel: false });
    expect(passengerMay(moved, {}, new Date(booked.getTime() - 2 * HOUR))).toEqual({ change: false, cancel: false });
    // Moved earlier: the earlier pickup's deadlines.
    const sooner = { status: 'confirmed', pickupAt: dayEarlier, originalPickupAt: booked };
    expect(passengerMay(sooner, {}, new Date(dayEarlier.getTime() - 24 * HOUR))).toEqual({ change: true, cancel: false });
    expect(passengerMay(sooner, {}, new Date(dayEarlier.getTime() - 2 * HOUR))).toEqual({ change: false, cancel: false });
  });
});

describe("the change form's words for a new pickup time, before saving", () => {
  const times = { pickupAt: booked, originalPickupAt: booked };
  const early = new Date('2030-09-01T12:00:00Z');

  it('say nothing while the pickup stays', () => {
    expect(moveWords(times, new Date(booked.getTime()), {}, early)).toBeNull();
  });

  it('say that a later pickup moves neither deadline', () => {
    expect(moveWords(times, dayLater, {}, early)).toBe(
      'Free cancellation still ends on Wednesday 11 September 2030 at 07:15: moving the pickup does not move it. '
      + 'Changes can be made here until Thursday 12 September 2030 at 05:15.');
  });

  it('say, inside the last 24 hours, that moving the pickup does not bring free cancelling back', () => {
    const inside = new Date('2030-09-11T10:00:00Z');
    expect(moveWords(times, dayLater, {}, inside)).toBe(
      'Free cancellation ended on Wednesday 11 September 2030 at 07:15: moving the pickup does not bring it back. '
      + 'Changes can be made here until Thursday 12 September 2030 at 05:15.');
    expect(moveWords(times, dayLater, {}, new Date('2030-09-11T06:15:00Z'))).toMatch(/^Free cancellation ended on /);
    expect(moveWords(times, dayLater, {}, new Date('2030-09-11T06:14:59.999Z'))).toMatch(/^Free cancellation still ends on /);
  });

  it('say that an earlier pickup brings the deadlines forward, or ends free cancelling at once', () => {
    expect(moveWords(times, dayEarlier, {}, early)).toBe(
      'Moving the pickup earlier moves the end of free cancellation to Tuesday 10 September 2030 at 07:15. '
      + 'Changes can be made here until Wednesday 11 September 2030 at 05:15.');
    const justBefore = new Date('2030-09-10T06:15:00Z'); // the earlier pickup's free cancelling ends now
    expect(moveWords(times, dayEarlier, {}, justBefore)).toBe(
      'With the pickup at this time, free cancellation ends as soon as you save. Changes can be made here until Wednesday 11 September 2030 at 05:15.');
    expect(moveWords(times, dayEarlier, {}, new Date(justBefore.getTime() - 1))).toMatch(/^Moving the pickup earlier /);
  });

  it('say when no more changes can be made after this one', () => {
    const soon = new Date(booked.getTime() - HOUR);
    const inside = new Date(booked.getTime() - 2.5 * HOUR);
    expect(moveWords(times, soon, {}, inside)).toBe(
      `Free cancellation ended on Wednesday 11 September 2030 at 07:15: moving the pickup does not bring it back. After this change, no more changes can be made here.`);
    expect(moveWords(times, soon, {}, new Date(booked.getTime() - 3 * HOUR - 1))).toMatch(/Changes can be made here until Thursday 12 September 2030 at 04:15\.$/);
    expect(moveWords(times, soon, {}, new Date(booked.getTime() - 3 * HOUR))).toMatch(/After this change, no more changes can be made here\.$/);
  });

  it("read the form's date and time as UK time, and nothing while they name no time", () => {
    expect(pickupOfValues({ pickup_date: '2030-09-13', pickup_hour: '7am', pickup_min: '15' })).toEqual(dayLater);
    expect(pickupOfValues({ pickup_date: '2030-12-01', pickup_hour: '12pm', pickup_min: '00' })).toEqual(new Date('2030-12-01T12:00:00Z'));
    for (const bad of [
      { pickup_date: '2030-02-30', pickup_hour: '7am', pickup_min: '15' }, { pickup_date: '2030-09-13', pickup_hour: '13am', pickup_min: '15' },
      { pickup_date: '2030-09-13', pickup_hour: '7am', pickup_min: '07' }, { pickup_date: '', pickup_hour: '', pickup_min: '' },
    ]) expect(pickupOfValues(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('a booking made inside the free-cancellation window', () => {
  it('is one made CANCELLATION_WINDOW_HOURS or less before the pickup it was booked for, wherever the pickup is now', () => {
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - 24 * HOUR), {})).toBe(true);
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - 24 * HOUR - 1), {})).toBe(false);
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - HOUR), {})).toBe(true);
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - 6 * HOUR), { CANCELLATION_WINDOW_HOURS: '6' })).toBe(true);
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - 6 * HOUR - 1), { CANCELLATION_WINDOW_HOURS: '6' })).toBe(false);
    expect(bookedInsideWindow(booked, new Date(booked.getTime() - 7 * HOUR), { CANCELLATION_WINDOW_HOURS: ' ' })).toBe(true);
  });

  it('is told so in the hours of the setting', () => {
    expect(noFreeCancelWords({})).toBe('Bookings made within 24 hours of pickup have no free cancellation.');
    expect(noFreeCancelWords({ CANCELLATION_WINDOW_HOURS: '1' })).toBe('Bookings made within 1 hour of pickup have no free cancellation.');
    expect(noFreeCancelWords({ CANCELLATION_WINDOW_HOURS: '48' })).toBe('Bookings made within 48 hours of pickup have no free cancellation.');
  });

  it("is told so by the change form, never that free cancellation ended before the booking was made", () => {
    const times = { pickupAt: booked, originalPickupAt: booked };
    const madeAt = new Date(booked.getTime() - 20 * HOUR);
    const now = new Date(booked.getTime() - 10 * HOUR);
    expect(moveWords(times, dayLater, {}, now, madeAt)).toBe(
      'Bookings made within 24 hours of pickup have no free cancellation. Moving the pickup does not change that. '
      + 'Changes can be made here until Thursday 12 September 2030 at 05:15.');
    // Made a day and a moment ahead: free cancelling was had, and ended.
    expect(moveWords(times, dayLater, {}, now, new Date(booked.getTime() - 24 * HOUR - 1))).toMatch(/^Free cancellation ended on Wednesday 11 September 2030 at 07:15: /);
    expect(moveWords(times, dayLater, {}, now, null)).toMatch(/^Free cancellation ended on /);
    expect(moveWords(times, dayLater, { CANCELLATION_WINDOW_HOURS: '12' }, now, madeAt)).toMatch(/^Free cancellation ended on Wednesday 11 September 2030 at 19:15: /);
  });
});

describe("a booking's e-mail address", () => {
  it('moves only when the mailbox does (not its capitals or spaces), and may do so 3 times, as the message says', () => {
    expect(emailMoved({ passenger_email: 'a@example.com' }, { passenger_email: ' A@Example.com ' })).toBe(false);
    expect(emailMoved({ passenger_email: 'a@example.com' }, { passenger_email: 'b@example.com' })).toBe(true);
    expect(MAX_EMAIL_CHANGES).toBe(3);
    expect(CHANGE_MESSAGES.emailChangesUsed).toBe(
      'The e-mail address of this booking has been changed 3 times, the most we allow online. Please call or e-mail us to change it again.');
  });
});

describe('text a visitor typed, in mail', () => {
  const plain = (s: string) => s.replace(/\u200B/g, '');

  it('is no web address a mail client would link, and reads as it was typed', () => {
    for (const typed of ['https://evil.example/refund-form', 'see http://evil.example.', 'www.evil.example/pay', 'evil.example/refund', 'HTTPS://EVIL.EXAMPLE']) {
      const out = defuse(typed);
      expect(plain(out), typed).toBe(typed);
      expect(out, typed).not.toMatch(/[a-z]+:\/\//i);
      expect(out, typed).not.toMatch(/[\p{L}\p{N}]\.\p{L}/u);
    }
  });

  it('leaves alone e-mail addresses, prices, times, initials and text with no address in it', () => {
    for (const typed of ['amelia.hart@example.co.uk', 'write to amelia.hart@example.co.uk.', '£62.00', '07.15', 'Amelia J. Hart', 'Two bags. One case', 'BA 117']) {
      expect(defuse(typed), typed).toBe(typed);
    }
  });
});
