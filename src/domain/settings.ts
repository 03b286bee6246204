// Reading the operator's settings (SPEC 3 'Setting keys read').
import { DEFAULT_CURRENCY, formatExactPrice, formatWholePrice } from './money';

export type Settings = Record<string, string>;

/** Toggles use the literal value enable; some use yes. */
export function isEnabled(settings: Settings, key: string): boolean {
  const v = (settings[key] ?? '').trim().toLowerCase();
  return v === 'enable' || v === 'yes';
}

/** Numeric settings (prices, minutes); absent or unreadable counts as 0. */
export function numberSetting(settings: Settings, key: string): number {
  const n = Number(settings[key]);
  return Number.isFinite(n) ? n : 0;
}

/** SPEC 9: GRACE_TIME, the minutes a pickup must be booked ahead (absent, unreadable or negative counts as 0). */
export function graceMinutes(settings: Settings): number {
  return Math.max(0, numberSetting(settings, 'GRACE_TIME'));
}

/** GRACE_TIME as a person says it (SPEC 8's GRACE_TIME/60 hours): '2 hours', '1 hour', '1 hour 30 minutes', '45 minutes'. */
export function graceText(settings: Settings): string {
  const minutes = graceMinutes(settings);
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  const hours = h > 0 ? `${h} hour${h === 1 ? '' : 's'}` : '';
  const mins = m > 0 || h === 0 ? `${m} minute${m === 1 ? '' : 's'}` : '';
  return [hours, mins].filter(Boolean).join(' ');
}

export function currencyOf(settings: Settings): string {
  return settings.CURRENCY?.trim() || DEFAULT_CURRENCY;
}

export function settingsFromList(list: { setting_name: string; setting_value: string }[]): Settings {
  return Object.fromEntries(list.map((s) => [s.setting_name, s.setting_value]));
}

/** SPEC 9: SHOWPAYINCAR yes shows Pay In Car (an operator who never set it still takes payment in the car). */
export function showsPayInCar(settings: Settings): boolean {
  return settings.SHOWPAYINCAR === undefined || isEnabled(settings, 'SHOWPAYINCAR');
}

/** SPEC 9: SHOWCARD yes shows Pay By Card. */
export function showsCard(settings: Settings): boolean {
  return isEnabled(settings, 'SHOWCARD');
}

/** GUEST_LOGIN: guests may book unless the operator turned it off. */
export function allowsGuests(settings: Settings): boolean {
  return settings.GUEST_LOGIN?.trim().toLowerCase() !== 'disable';
}

/** A booking's amount in the operator's currency, in whole units when ROUND_OFF is yes (SPEC 2 'Confirmation'). */
export function formatBookingAmount(pounds: string | number, settings: Settings): string {
  const currency = currencyOf(settings);
  return isEnabled(settings, 'ROUND_OFF') ? formatWholePrice(pounds, currency) : formatExactPrice(pounds, currency);
}

/** Settings only the server reads, never sent to browsers (GET /setting, the page): the office's own inbox. */
export const SERVER_ONLY_SETTINGS: readonly string[] = ['OPERATOR_EMAIL'];

/**
 * The office's inbox, for everything the site tells the operator (new bookings, quote requests, contact messages):
 * OPERATOR_EMAIL when set, else FROM_EMAIL, else the published Company_Email (issue 26, decision 39).
 */
export function operatorEmail(s: Settings): string {
  return s.OPERATOR_EMAIL?.trim() || s.FROM_EMAIL?.trim() || s.Company_Email?.trim() || 'bookings@localhost';
}
