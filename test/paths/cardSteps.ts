// The card page's steps a person takes, shared by the booking and card payment paths: the local test gateway's
// card inputs (Stripe's documented test numbers, src/server/testGateway/cards.ts) and the Pay button.
import type { PathPage } from './pathRunner';

export const CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  /** Asks for the bank's check (3-D Secure). */
  authenticates: '4000002760003184',
} as const;

/** Types a card into the card inputs: its number, a future expiry (MM/YY) and a security code. */
export async function typeCard(p: PathPage, number: string, expiry = '1234', cvc = '123') {
  const { page } = p;
  await page.getByLabel('Credit or debit card number').fill('');
  await page.getByLabel('Credit or debit card number').pressSequentially(number);
  await page.getByLabel('Credit or debit card expiration date').fill('');
  await page.getByLabel('Credit or debit card expiration date').pressSequentially(expiry);
  await page.getByLabel('Credit or debit card security code').fill('');
  await page.getByLabel('Credit or debit card security code').pressSequentially(cvc);
}

export const pay = (p: PathPage) => p.page.getByRole('button', { name: /^Pay £/ }).click();

/** Types the card and presses Pay. */
export async function payWith(p: PathPage, number: string, expiry?: string) {
  await typeCard(p, number, expiry);
  await pay(p);
}
