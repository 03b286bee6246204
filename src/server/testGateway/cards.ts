// The local test gateway's cards: Stripe's documented test numbers behave as
// they do in Stripe's test mode; any other number is refused as Stripe's test
// mode refuses real cards.

export type CardOutcome =
  | { kind: 'succeeds' }
  | { kind: 'authenticates' }
  | { kind: 'declined'; code: string; declineCode?: string; message: string };

export const DECLINED = 'Your card was declined.';

const CARDS: Record<string, { brand: string; outcome: CardOutcome }> = {
  '4242424242424242': { brand: 'visa', outcome: { kind: 'succeeds' } },
  '4000058260000005': { brand: 'visa', outcome: { kind: 'succeeds' } }, // Visa debit, GB
  '5555555555554444': { brand: 'mastercard', outcome: { kind: 'succeeds' } },
  '378282246310005': { brand: 'amex', outcome: { kind: 'succeeds' } },
  '4000002760003184': { brand: 'visa', outcome: { kind: 'authenticates' } },
  '4000002500003155': { brand: 'visa', outcome: { kind: 'authenticates' } },
  '4000000000000002': { brand: 'visa', outcome: { kind: 'declined', code: 'card_declined', declineCode: 'generic_decline', message: DECLINED } },
  '4000000000009995': {
    brand: 'visa', outcome: { kind: 'declined', code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  '4000000000009987': { brand: 'visa', outcome: { kind: 'declined', code: 'card_declined', declineCode: 'lost_card', message: DECLINED } },
  '4000000000000069': { brand: 'visa', outcome: { kind: 'declined', code: 'expired_card', message: 'Your card has expired.' } },
  '4000000000000127': { brand: 'visa', outcome: { kind: 'declined', code: 'incorrect_cvc', message: "Your card's security code is incorrect." } },
  '4000000000000119': {
    brand: 'visa', outcome: { kind: 'declined', code: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  },
};

const NOT_A_TEST_CARD: CardOutcome = {
  kind: 'declined', code: 'card_declined', declineCode: 'test_mode_live_card',
  message: 'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

export function brandOf(digits: string): string {
  if (CARDS[digits]) return CARDS[digits].brand;
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'unknown';
}

export const outcomeOf = (digits: string): CardOutcome => CARDS[digits]?.outcome ?? NOT_A_TEST_CARD;

export interface CardError { code: string; param: string; message: string }

/** What Stripe answers when a card's details cannot be a card (before any bank sees it). */
export function cardDetailsError(card: { number?: string; exp_month?: string; exp_year?: string; cvc?: string }, now: Date): CardError | null {
  const digits = (card.number ?? '').replace(/\s+/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return { code: 'incorrect_number', param: 'card[number]', message: 'Your card number is incorrect.' };
  }
  const month = Number(card.exp_month);
  let year = Number(card.exp_year);
  if (year < 100) year += 2000;
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    return { code: 'invalid_expiry_month', param: 'card[exp_month]', message: "Your card's expiration month is invalid." };
  }
  // A card is good to the end of its month wherever the cardholder is: compare with the earliest date on Earth (UTC-12).
  const earliest = new Date(now.getTime() - 12 * 3600_000);
  const thisYear = earliest.getUTCFullYear();
  if (!Number.isInteger(year) || year < thisYear || year > thisYear + 50) {
    return { code: 'invalid_expiry_year', param: 'card[exp_year]', message: "Your card's expiration year is invalid." };
  }
  if (year === thisYear && month < earliest.getUTCMonth() + 1) {
    return { code: 'invalid_expiry_month', param: 'card[exp_month]', message: "Your card's expiration month is invalid." };
  }
  const cvcLength = brandOf(digits) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc ?? '')) {
    return { code: 'invalid_cvc', param: 'card[cvc]', message: "Your card's security code is invalid." };
  }
  return null;
}
