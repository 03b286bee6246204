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
  const [whole, frac] = penceToPounds(pence).split('.');
  return `${currency}${Number(whole).toLocaleString('en-GB')}.${frac}`;
}

/** Final price = price x quantity (SPEC 4), in pence. */
export function finalPricePence(price: string, quantity: number): number {
  return poundsToPence(price) * quantity;
}
