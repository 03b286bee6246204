// Decision 39 (the office's inbox, a setting never sent to browsers) and issue 24 (the words once declined card
// tries are used up). Each test loads its own copy of the module (an import with a query of its own), so a mutation
// run tries it on what the module builds as it loads (docs/mutation.md).
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../src/domain/settings';

let copies = 0;
const COPY = Math.random().toString(36).slice(2);
const loadSettings = (): Promise<typeof import('../../src/domain/settings')> =>
  import(/* @vite-ignore */ `../../src/domain/settings.ts?copy=${COPY}-${++copies}`);
const loadMessages = (): Promise<typeof import('../../src/domain/messages')> =>
  import(/* @vite-ignore */ `../../src/domain/messages.ts?copy=${COPY}-${++copies}`);

describe("the office's inbox (decision 39)", () => {
  it('is OPERATOR_EMAIL when set, else FROM_EMAIL, else the published Company_Email, each trimmed', async () => {
    const { operatorEmail } = await loadSettings();
    const all = { OPERATOR_EMAIL: ' desk@albion.example ', FROM_EMAIL: ' from@albion.example ', Company_Email: ' hello@albion.example ' } as Settings;
    expect(operatorEmail(all)).toBe('desk@albion.example');
    expect(operatorEmail({ ...all, OPERATOR_EMAIL: '  ' })).toBe('from@albion.example');
    expect(operatorEmail({ ...all, OPERATOR_EMAIL: '', FROM_EMAIL: ' ' })).toBe('hello@albion.example');
  });

  it('falls back to a local address when none is set, so a notice is never addressed to nobody', async () => {
    const { operatorEmail } = await loadSettings();
    expect(operatorEmail({} as Settings)).toBe('bookings@localhost');
    expect(operatorEmail({ OPERATOR_EMAIL: ' ', FROM_EMAIL: '', Company_Email: '  ' } as Settings)).toBe('bookings@localhost');
  });

  it('is the one setting kept from browsers', async () => {
    const { SERVER_ONLY_SETTINGS } = await loadSettings();
    expect(SERVER_ONLY_SETTINGS).toEqual(['OPERATOR_EMAIL']);
  });
});

describe('card tries used up (issue 24)', () => {
  it('say no payment was taken and offer Pay in Car where the operator offers it, and the phone', async () => {
    const { cardTriesUsedUp } = await loadMessages();
    expect(cardTriesUsedUp(false, true, ' 020 7946 0321 ')).toBe(
      'Too many card payments were declined. No payment was taken. Please choose Pay in Car, or call us on 020 7946 0321 to book.');
    expect(cardTriesUsedUp(true, false, '')).toBe(
      "This booking's card payment was declined too many times. No payment was taken. Please call us to book.");
    expect(cardTriesUsedUp(false, false, '  ')).toBe('Too many card payments were declined. No payment was taken. Please call us to book.');
  });

  it('are told apart from other refusals by how they begin', async () => {
    const { cardTriesUsedUp, isCardTriesUsedUp } = await loadMessages();
    expect(isCardTriesUsedUp(cardTriesUsedUp(false, true, '1'))).toBe(true);
    expect(isCardTriesUsedUp(cardTriesUsedUp(true, true, '1'))).toBe(true);
    expect(isCardTriesUsedUp('Your card was declined. Too many card payments were declined.')).toBe(false);
    expect(isCardTriesUsedUp('Payment failed. Please try again.')).toBe(false);
  });
});
