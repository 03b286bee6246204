// Money is integer pence everywhere; pounds appear only as the numeric strings
// of SPEC section 7 ("price": "45.50") and in what a person reads.
export const DEFAULT_CURRENCY = '£';

export function penceToPounds(pence: number): string {
  if (!Number.isInteger(pence)) throw new Error(`Pence must be an integer: ${pence}`);
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** '45.5' or '45.50' -> 4550. Anything that is not a plain amount is NaN. */
export function poundsToPence(pounds: string | number): number {
  const text = typeof pounds === 'number' ? pounds.toFixed(2) : pounds.trim();
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return Number.NaN;
  const pence = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] ? -pence : pence;
}

/** Display rule of SPEC 9: whole pounds with the currency symbol, e.g. £55. */
export function formatWholePrice(pounds: string | number, currency: string = DEFAULT_CURRENCY): string {
  const pence = poundsToPence(pounds);
  if (Number.isNaN(pence)) return `${currency}0`;
  return `${currency}${Math.round(pence / 100).toLocaleString('en-GB')}`;
}

/** Exact amount with pence, e.g. £54.60, for breakdowns and receipts. */
export function formatExactPrice(pounds: string | number, currency: string = DEFAULT_CURRENCY): string {
  const pence = poundsToPence(pounds);
  if (Number.isNaN(pence)) return `${currency}0.00`;
  const [whole, frac] = penceToPounds(Math.abs(pence)).split('.');
  return `${pence < 0 ? '-' : ''}${currency}${Number(whole).toLocaleString('en-GB')}.${frac}`;
}

/**
 * Decision 21, one price: an amount as every page shows it. A price is whole pounds when the operator rounds
 * (ROUND_OFF yes, the server rounds it) and then shows as £54; otherwise it keeps its pence, £54.37, so the
 * vehicle card, the payment step, the charge, the confirmation and the e-mail all show the same amount.
 */
export function formatAmount(pounds: string | number, currency: string = DEFAULT_CURRENCY): string {
  const pence = poundsToPence(pounds);
  return !Number.isNaN(pence) && pence % 100 === 0 ? formatWholePrice(pounds, currency) : formatExactPrice(pounds, currency);
}

/** Decision 21: a total rounded to whole pounds, half a pound up (£54.50 -> £55, £54.49 -> £54). */
export function roundToPoundsPence(pence: number): number {
  return Math.floor((pence + 50) / 100) * 100;
}

/** Final price = price x quantity (SPEC 4), in pence. */
export function finalPricePence(price: string, quantity: number): number {
  return poundsToPence(price) * quantity;
}
