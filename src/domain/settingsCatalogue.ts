// The operator's settings as the console edits them (issue 26 'Operator data'): SPEC 3's keys and those issues added,
// each with what kind of value it takes, so a toggle is a switch, a number a number, and a wrong value is refused
// with a message naming the setting. The console's form and the server check by the same function.
import { isEmail } from './fields';
import { EXTRAS } from './extras';
import { MAX_FREE_WAITING_MINUTES } from './freeWaiting';
import { tileUrlProblem } from './tracking';
import { RETENTION_RANGES, RETENTION_SETTINGS } from './retention';

export type SettingKind =
  /** enable / disable */
  | 'toggle'
  /** yes / no (SPEC: "some use yes") */
  | 'yesNo'
  /** a whole number of minutes */
  | 'minutes'
  /** a whole number of hours */
  | 'hours'
  /** a rate in per cent, like 20 */
  | 'percent'
  /** pounds and pence */
  | 'money'
  | 'text'
  | 'email'
  /** several paragraphs (page texts) */
  | 'longText'
  /** a map tile address with {z}, {x} and {y} (issue 41) */
  | 'tileUrl'
  /** a whole number of calls or things (issue 42: the flight provider's allowance) */
  | 'count'
  /** a whole number of months or years within `range` (issue 43: how long personal data is kept) */
  | 'months'
  | 'years';

export interface SettingInfo {
  name: string; label: string; kind: SettingKind; group: SettingGroup; hint?: string;
  /** Minutes: empty keeps the default the hint names; the most the setting takes. */
  minutes?: { optional: boolean; max: number };
  /** Months and years: the least and most it takes, and why the least (empty keeps the least). */
  range?: { min: number; max: number; why: string };
}
export type SettingGroup = 'Company' | 'Site' | 'Booking' | 'Dispatch' | 'Flights' | 'Prices of extras' | 'Payment' | 'Records and privacy' | 'Pages';
export const SETTING_GROUPS: readonly SettingGroup[] = ['Company', 'Site', 'Booking', 'Dispatch', 'Flights', 'Prices of extras', 'Payment', 'Records and privacy', 'Pages'];

const s = (name: string, label: string, kind: SettingKind, group: SettingGroup, hint?: string, minutes?: SettingInfo['minutes']): SettingInfo => (
  { name, label, kind, group, hint, ...minutes && { minutes } });
const freeWaiting = { optional: true, max: MAX_FREE_WAITING_MINUTES };
const alertMinutes = { optional: true, max: 24 * 60 };
const flightMinutes = { optional: true, max: 24 * 60 };

export const SETTINGS_CATALOGUE: readonly SettingInfo[] = [
  s('Company_Name', 'Company name', 'text', 'Company'),
  s('Company_Contact_Info', 'Phone', 'text', 'Company'),
  s('Company_Email', 'Published e-mail', 'email', 'Company'),
  s('Company_Address', 'Address', 'text', 'Company'),
  s('OPERATOR_LICENCE_NUMBER', 'Operator licence number', 'text', 'Company', 'Printed at the top of the booking records (issue 43).'),
  s('OPERATOR_LICENSING_AUTHORITY', 'Licensing authority', 'text', 'Company', 'The council or Transport for London, as the licence names it.'),
  s('FROM_EMAIL', 'E-mails are sent from', 'email', 'Company'),
  s('OPERATOR_EMAIL', "The office's inbox", 'email', 'Company', 'New bookings, changes, quote requests and contact messages; empty: the address e-mails are sent from.'),
  s('SHOW_NAVBAR_PAGE', 'Site bar', 'toggle', 'Site'),
  s('SHOW_FOOTER_PAGE', 'Footer', 'toggle', 'Site'),
  s('NAVBAR_OUR_FLEET_PAGE', 'Our fleet in the site bar', 'toggle', 'Site'),
  s('NAVBAR_URGENT_BOOKING_PAGE', 'Urgent booking in the site bar', 'toggle', 'Site'),
  s('CORPORATE_LOGIN', 'Corporate accounts', 'toggle', 'Site'),
  s('SHOW_COMPANY_FLEET_VIEW_SECTION', 'Fleet section on the home page', 'toggle', 'Site'),
  s('SHOW_COMPANY_CONTACT_SECTION', 'Contact section on the home page', 'toggle', 'Site'),
  s('SHOW_POPULAR_LOCATION_PAGE', 'Popular places on the home page', 'toggle', 'Site'),
  s('GOOGLE_API_KEY', 'Google Maps key', 'text', 'Site', 'Empty: addresses are suggested from the built-in gazetteer.'),
  // The map of the car on the passenger's page (issue 41 §3, src/domain/tracking.ts).
  s('MAP_TILE_URL', 'Map tiles', 'tileUrl', 'Site', 'The tile address with {z}, {x} and {y}, from your map provider. Empty: the car’s distance and time in words, no map.'),
  s('MAP_TILE_ATTRIBUTION', 'Map credit', 'text', 'Site', 'What your map provider asks to be shown on the map, like © OpenStreetMap contributors.'),
  s('GRACE_TIME', 'Book at least this long ahead', 'minutes', 'Booking', 'Minutes. Sooner pickups are sent to the quote form.'),
  s('IS_QUOTATION', 'Quotes only (no prices)', 'toggle', 'Booking'),
  s('HOURLY_RATE_STATUS', 'Hourly hire', 'toggle', 'Booking'),
  s('MULTIPLE_OPERATORS', 'Offer every company', 'toggle', 'Booking'),
  s('MULTIPLE_PRICES', 'Several prices per vehicle type', 'toggle', 'Booking'),
  s('CHEAPEST_COMPANY_PRICE', 'Only the cheapest company per vehicle type', 'toggle', 'Booking'),
  s('GUEST_LOGIN', 'Booking as a guest', 'toggle', 'Booking'),
  s('FREE_WAITING_AIRPORT_MINUTES', 'Free waiting at airports', 'minutes', 'Booking', 'Minutes after the flight lands (empty: 45).', freeWaiting),
  s('FREE_WAITING_MINUTES', 'Free waiting elsewhere', 'minutes', 'Booking', 'Minutes after the pickup time (empty: 15).', freeWaiting),
  s('CHANGE_CUTOFF_HOURS', 'Passengers may change details until', 'hours', 'Booking', 'Hours before the pickup as booked: moving it later does not move this (empty: 2).'),
  s('CANCELLATION_WINDOW_HOURS', 'Free cancelling until', 'hours', 'Booking', 'Hours before the pickup as booked: moving it later does not move this (empty: 24).'),
  // The board's alerts (issue 41 §5, src/domain/tracking.ts boardAlerts).
  s('ALERT_NO_DRIVER_MINUTES', 'Alert: no driver', 'minutes', 'Dispatch', 'Minutes before the pickup a job without a driver is flagged (empty: 60).', alertMinutes),
  s('ALERT_NOT_ACCEPTED_MINUTES', 'Alert: not accepted', 'minutes', 'Dispatch', 'Minutes after the assignment a job the driver has not accepted is flagged (empty: 10).', alertMinutes),
  s('ALERT_NOT_ON_WAY_MINUTES', 'Alert: driver not on the way', 'minutes', 'Dispatch', 'Minutes before the pickup a driver not yet on the way is flagged (empty: 30).', alertMinutes),
  // Airport pickups that follow the flight (issue 42, src/domain/flights.ts flightSettings).
  s('FLIGHT_CHECK_MINUTES', 'Check flights every', 'minutes', 'Flights', 'Minutes between checks of a flight from 4 hours before it lands (empty: 15).', flightMinutes),
  s('FLIGHT_CHECK_NEAR_MINUTES', 'Check flights near landing every', 'minutes', 'Flights', 'Minutes between checks within 2 hours of the landing (empty: 5).', flightMinutes),
  s('FLIGHT_ARRIVALS_DOMESTIC_MINUTES', 'Landing to arrivals, domestic', 'minutes', 'Flights', 'The pickup is the landing plus these minutes for a flight from the UK (empty: 15).', flightMinutes),
  s('FLIGHT_ARRIVALS_INTERNATIONAL_MINUTES', 'Landing to arrivals, international', 'minutes', 'Flights', 'The pickup is the landing plus these minutes for a flight from abroad (empty: 30).', flightMinutes),
  s('FLIGHT_PICKUP_EARLIER', 'Move a pickup earlier for an early landing', 'yesNo', 'Flights', 'Off: a pickup never moves earlier than booked.'),
  s('FLIGHT_TELL_MINUTES', 'Tell everyone of a move of', 'minutes', 'Flights', 'Minutes; a smaller move changes the time without a message (empty: 15).', flightMinutes),
  s('FLIGHT_CALLS_PER_MINUTE', 'Flight status calls per minute', 'count', 'Flights', "Your provider plan's allowance (empty: 10)."),
  s('FLIGHT_CALLS_PER_DAY', 'Flight status calls per day', 'count', 'Flights', "Your provider plan's allowance (empty: 1000)."),
  // The extras' prices, named as the extras are (src/domain/extras.ts).
  ...EXTRAS.map((e) => s(e.setting, e.kind === 'count' ? `${e.label}, each` : e.kind === 'minutes' ? `${e.label} (per ${e.step} started)` : e.label,
    'money', 'Prices of extras', '0 takes it off the booking form.')),
  s('CURRENCY', 'Currency symbol', 'text', 'Payment'),
  s('SHOWPAYINCAR', 'Pay in the car', 'yesNo', 'Payment'),
  s('SHOWCARD', 'Pay by card', 'yesNo', 'Payment'),
  s('ROUND_OFF', 'Round prices to whole pounds', 'yesNo', 'Payment'),
  s('VAT_NUMBER', 'VAT number', 'text', 'Payment', 'When set, the receipt of a booking paid by card or completed is a VAT invoice, numbered without gaps and never changed; a later refund or payment is a credit or debit note.'),
  s('VAT_RATE', 'VAT rate (%)', 'percent', 'Payment', 'Empty: 20.'),
  s('PAYMENT_LINK_HOURS', 'Card payment links work for', 'hours', 'Payment', 'Hours, for a booking taken by phone; never later than 30 minutes before the pickup (empty: 24).'),
  // How long personal data is kept (issue 43 §4, src/domain/retention.ts, decision 60).
  { ...s(RETENTION_SETTINGS.records, 'Keep booking records for', 'months', 'Records and privacy',
    "Months after the journey (a return: its later leg); then the passenger's name, phone, e-mail, notes and addresses beyond the postcode district are removed (empty: 12)."),
    range: { min: RETENTION_RANGES.records.min, max: RETENTION_RANGES.records.max, why: "the licensing rules' least" } },
  { ...s(RETENTION_SETTINGS.invoices, 'Keep VAT invoices for', 'years', 'Records and privacy',
    'Years after the invoice date; then the buyer and journey on it are made anonymous (empty: 6).'),
    range: { min: RETENTION_RANGES.invoices.min, max: RETENTION_RANGES.invoices.max, why: "HMRC's least" } },
  s('TERMS_AND_CONDITIONS', 'Terms and conditions', 'longText', 'Pages', 'Empty: the built-in text.'),
  s('PRIVACY_POLICY', 'Privacy policy', 'longText', 'Pages', 'Empty: the built-in text.'),
  s('ACCESSIBILITY_STATEMENT', 'Accessibility statement', 'longText', 'Pages', 'Empty: the built-in text.'),
];

export const settingInfo = (name: string) => SETTINGS_CATALOGUE.find((x) => x.name === name) ?? null;

/** What is wrong with a value for a setting, or null when it is right. */
export function settingProblem(info: SettingInfo, value: string): string | null {
  const v = value.trim();
  switch (info.kind) {
    case 'toggle': return v === 'enable' || v === 'disable' ? null : `${info.label}: choose on or off.`;
    case 'yesNo': return v === 'yes' || v === 'no' ? null : `${info.label}: choose on or off.`;
    case 'minutes': {
      const { optional = false, max = 99_999 } = info.minutes ?? {};
      if (optional && v === '') return null;
      if (/^\d{1,5}$/.test(v) && Number(v) <= max) return null;
      return info.minutes ? `${info.label}: enter a whole number of minutes up to ${max}, or leave it empty.` : `${info.label}: enter a whole number of minutes, like 120.`;
    }
    case 'hours': return v === '' || /^\d{1,4}$/.test(v) ? null : `${info.label}: enter a whole number of hours, like 24.`;
    case 'percent': return v === '' || (/^\d{1,2}(\.\d{1,2})?$/.test(v)) ? null : `${info.label}: enter a rate in per cent, like 20.`;
    case 'money': return /^\d{1,5}(\.\d{1,2})?$/.test(v) ? null : `${info.label}: enter an amount in pounds, like 12.50.`;
    case 'email': return v === '' || isEmail(v) ? null : `${info.label}: enter an e-mail address, or leave it empty.`;
    case 'text': return v.length <= 300 ? null : `${info.label}: at most 300 characters.`;
    case 'longText': return v.length <= 20_000 ? null : `${info.label}: at most 20,000 characters.`;
    case 'count': return v === '' || /^[1-9]\d{0,5}$/.test(v) ? null : `${info.label}: enter a whole number from 1, or leave it empty.`;
    case 'months':
    case 'years': {
      const { min, max, why } = info.range ?? { min: 0, max: 9999, why: '' };
      if (v === '' || (/^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max)) return null;
      return `${info.label}: a whole number of ${info.kind} from ${min}${why ? ` (${why})` : ''} to ${max}, or leave it empty for ${min}.`;
    }
    case 'tileUrl': {
      const problem = tileUrlProblem(v);
      return problem && `${info.label}: ${problem}`;
    }
  }
}

/** A toggle's value as on or off. */
export const isOn = (info: SettingInfo, value: string | undefined) => (info.kind === 'yesNo' ? value === 'yes' : value === 'enable');
export const onOff = (info: SettingInfo, on: boolean) => (info.kind === 'yesNo' ? (on ? 'yes' : 'no') : on ? 'enable' : 'disable');
