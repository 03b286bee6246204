// The words of the site's text messages (issue 41 §3, §4), each within two SMS segments (src/domain/sms.ts fitSms):
// who sends it first, what happened, and the office's phone number last, so a passenger can always call. Written in
// the queue by the change that causes them (./queue.ts enqueueSms).
import type { BookingResult } from '../../domain/schemas';
import { currencyOf, type Settings } from '../../domain/settings';
import { fitSms } from '../../domain/sms';
import { formatDateLong } from '../../domain/ukTime';
import { isUkMobile } from '../../domain/fleetRecords';
import type { DriverDetails } from './templates';

/** Whether a stored number can take a text: a UK number must be a UK mobile; another country's is tried (its network says). */
export const textable = (e164: string | null | undefined): e164 is string =>
  Boolean(e164 && /^\+[1-9]\d{7,14}$/.test(e164) && (!e164.startsWith('+44') || isUkMobile(e164)));

/** Who the text is from: the operator's name, short. */
const sender = (s: Settings) => `${s.Company_Name?.trim() || 'Your taxi'}: `;
/** The office's number, for a question: every text ends with it when the settings have one. */
const callUs = (s: Settings) => (s.Company_Contact_Info?.trim() ? ` Questions? Call ${s.Company_Contact_Info.trim()}` : '');
/** The pickup, as a text says it: "Sat, 12 Dec 2026 07:15". */
const when = (b: BookingResult['booking']) => `${formatDateLong(b.pick_up_date)} ${b.pick_up_time}`;

/** To the passenger when a driver is assigned (or changed): the driver, the car, its colour and registration. */
export function driverAssignedText(r: BookingResult, d: DriverDetails, s: Settings, changed: boolean): string {
  const b = r.booking;
  return fitSms({
    before: `${sender(s)}${changed ? 'your driver has changed. ' : ''}For ${b.booking_number} on ${when(b)} your driver is `,
    shortenable: `${d.name}, ${d.colour ? `${d.colour} ` : ''}${d.vehicle}`,
    after: `, reg ${d.registration}.${callUs(s)}`,
  });
}

/** A place as a text names it: its first part (before the first comma), e.g. "Heathrow Airport Terminal 5". */
const placeOf = (address: string | null | undefined) => (address ?? '').split(',')[0].trim();

/**
 * To the passenger as the driver moves: on the way (with the link to follow the car), arrived, completed (the receipt).
 * Only words the site and the office wrote: the number was typed by whoever booked, so a pickup address typed with it
 * is not sent to it (as issue 39 keeps visitors' text out of messages to addresses they gave).
 */
export function journeyText(step: 'on_way' | 'arrived' | 'completed', r: BookingResult, driverName: string, link: string | null, s: Settings): string {
  const ref = r.booking.booking_number;
  if (step === 'on_way') {
    return fitSms({ before: `${sender(s)}${driverName} is on the way to your pickup for ${ref}. Follow the car: `, shortenable: '', after: `${link}${callUs(s)}` });
  }
  if (step === 'arrived') {
    return fitSms({ before: `${sender(s)}your driver ${driverName} is at the pickup point for ${ref}.`, shortenable: '', after: callUs(s) });
  }
  return fitSms({ before: `${sender(s)}thank you for travelling with us. Your receipt for ${ref}: `, shortenable: '', after: `${link}${callUs(s)}` });
}

/** To the driver when the office gives them a job: when, from and to, and the link to their page. */
export function driverJobText(r: BookingResult, driverUrl: string, s: Settings): string {
  const b = r.booking;
  const to = b.drop_off_address ? placeOf(b.drop_off_address) : `${b.hourly_duration ?? ''} hourly`.trim();
  return fitSms({ before: `${sender(s)}New job ${b.booking_number}: ${when(b)}, `, shortenable: `${placeOf(b.pick_up_address)} -> ${to}`, after: `. Open it: ${driverUrl}` });
}

/** To a driver whose job was given to another driver, or cancelled by the office. */
export function jobGoneText(r: BookingResult, why: 'reassigned' | 'cancelled', s: Settings): string {
  const b = r.booking;
  return fitSms({
    before: `${sender(s)}job ${b.booking_number} on ${when(b)} `, shortenable: '',
    after: `${why === 'cancelled' ? 'was cancelled by the office' : 'is no longer yours: the office gave it to another driver'}. Do not go to the pickup.${callUs(s)}`,
  });
}

/** To the passenger and the driver when a flight moves the pickup (issue 42): the new time and why, in fixed words. */
export function pickupMovedText(r: BookingResult, newTime: string, why: string, forDriver: boolean, s: Settings): string {
  const ref = r.booking.booking_number;
  return fitSms({
    before: `${sender(s)}${forDriver ? `job ${ref}` : `your pickup for ${ref}`} is now at ${newTime} (booked ${r.booking.pick_up_time}). `,
    shortenable: why, after: `.${forDriver ? '' : callUs(s)}`,
  });
}

/** To the passenger of a booking taken by phone (issue 43 §1): the link to pay it by card, which confirms it. */
export function paymentLinkText(r: BookingResult, link: string, s: Settings): string {
  const b = r.booking;
  return fitSms({
    before: `${sender(s)}to confirm ${b.booking_number} on ${when(b)}, pay ${currencyOf(s)}${b.total_booking_amount} by card: `,
    shortenable: '',
    after: `${link}${callUs(s)}`,
  });
}
