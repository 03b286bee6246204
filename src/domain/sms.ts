// What a text message may hold (issue 41 §4): its length in SMS segments as a phone network counts them. A message
// in the GSM 7-bit alphabet takes 160 characters in one segment and 153 a segment when it is split (the characters of
// the extension table, such as € [ ] { } ~ \ ^ |, count twice); any other character (an emoji, a curly quote) makes the
// whole message UCS-2: 70 in one segment, 67 a segment split. The site's messages stay within MAX_SMS_SEGMENTS.
export const MAX_SMS_SEGMENTS = 2;

const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ ÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENDED = new Set(GSM_EXTENDED);

export interface SmsLength { encoding: 'GSM-7' | 'UCS-2'; units: number; segments: number }

/** How a text is sent and how many segments it takes. */
export function smsLength(text: string): SmsLength {
  const chars = [...text];
  if (chars.every((c) => BASIC.has(c) || EXTENDED.has(c))) {
    const units = chars.reduce((n, c) => n + (EXTENDED.has(c) ? 2 : 1), 0);
    return { encoding: 'GSM-7', units, segments: units <= 160 ? 1 : Math.ceil(units / 153) };
  }
  // UCS-2 counts UTF-16 code units: a character outside the basic plane (an emoji) is two.
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** Characters a person types that the GSM alphabet lacks, as their nearest GSM form (so a message stays GSM-7). */
const PLAIN: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201C': '"', '\u201D': '"', '\u2013': '-', '\u2014': '-', '\u2026': '...', '\u00A0': ' ', '\u2192': '->',
};

/** The text with curly quotes, dashes, ellipses and arrows made plain, so one of them does not double the cost. */
export const plainSms = (text: string): string => [...text].map((c) => PLAIN[c] ?? c).join('');

/**
 * The message made plain and, when it would take more than `maxSegments`, its `shortenable` part (an address, a
 * free text) cut with "..." until it fits; the rest is kept whole. Fails when even without that part it is too long.
 */
export function fitSms(parts: { before: string; shortenable: string; after: string }, maxSegments = MAX_SMS_SEGMENTS): string {
  const before = plainSms(parts.before);
  const after = plainSms(parts.after);
  let middle = plainSms(parts.shortenable);
  const whole = () => `${before}${middle}${after}`;
  if (smsLength(whole()).segments <= maxSegments) return whole();
  const chars = [...middle];
  while (chars.length) {
    chars.pop();
    middle = `${chars.join('').trimEnd()}...`;
    if (smsLength(whole()).segments <= maxSegments) return whole();
  }
  middle = '';
  if (smsLength(whole()).segments <= maxSegments) return whole();
  throw new Error(`An SMS would take more than ${maxSegments} segments: ${before.slice(0, 40)}...`);
}
