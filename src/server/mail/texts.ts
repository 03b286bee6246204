// The words of the site's text messages (issue 41 §3, §4), each within two SMS segments (src/domain/sms.ts fitSms):
// who sends it first, what happened, and the office's phone number last, so a passenger can always call. Written in
// the queue by the change that causes them (./queue.ts enqueueSms).
import type { BookingResult } from '../../domain/schemas';
import type { Settings } from '../../domain/settings';
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
