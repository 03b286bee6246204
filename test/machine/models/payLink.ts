// The model of machines/payLink.ts (issue 43 §1, a card payment link's page) that paths are generated from
// (test/machine/modelPaths.ts): the events a test may send, and the facts each state keeps, worked out from the events
// of the path. The card sub-machine stands aside (its own model walks it): its answer is the model's `card` event.
import { expect } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { payLinkMachine, type PayLinkEvent, type PayLinkInput, type PayPage } from '../../../machines/payLink';
import type { CardPaymentInput, CardPaymentOutput } from '../../../machines/cardPayment';
import type { BookingResult } from '../../../src/domain/schemas';
import { answers, callsOpen, type Model, type ModelEvent, type Trail } from '../modelPaths';

export const cardStandIn = fromPromise<CardPaymentOutput, CardPaymentInput>(() => new Promise(() => {}));
export const machine = payLinkMachine.provide({ actors: { cardPayment: cardStandIn as never } });
type Snapshot = SnapshotFrom<typeof machine>;

export const readKey = answers(payLinkMachine, 'readPayKey');
export const load = answers(payLinkMachine, 'loadPayPage');
export const card = answers(payLinkMachine, 'cardPayment');

export const REF = 'BK-PH0NE123';
export const KEY = 'kQ3v_8s2Lw0pXr5tYb7nM1cZ4dF6gH9jK2lN5pR8sT0';
const page = (state: PayPage['state']): PayPage => ({
  reference: REF, state, amount: '62.00', expires_at: '2030-09-11T08:00:00.000Z', phone: '+44 20 7946 0321',
  trip: state !== 'awaiting' ? null
    : { pickup: 'Paddington Station', dropoff: 'Heathrow T5', date: '12-09-2030', time: '8:30 AM', vehicle: 'Saloon', company: 'Albion Executive Cars', passenger: 'Margaret Ellis' },
});
export const AWAITING = page('awaiting');
const refusal = (message: string, extra: { status?: number } = {}) => Object.assign(new Error(message), extra);
const booked = { booking: { booking_number: REF }, manage_key: 'x'.repeat(43) } as unknown as BookingResult;

export const EVENTS: ModelEvent<PayLinkEvent>[] = [
  readKey.done(KEY),
  readKey.done(null),
  // The tab's storage cannot be read (blocked): the page says the link cannot be opened.
  readKey.fails(refusal('The operation is insecure.')),
  load.done(AWAITING),
  load.done(page('paid')),
  load.done(page('expired')),
  load.fails(refusal('This payment link is not valid.', { status: 404 })),
  load.fails(refusal('We could not reach the booking server.')),
  { type: 'retry' },
  { type: 'pay.start' },
  { type: 'pay.close' },
  card.done({ booking: booked }),
];

export const INPUTS: Record<string, PayLinkInput> = {
  'the link in the e-mail': { location: { path: `/pay/${REF.toLowerCase()}`, search: '' } },
};

type Answer = { type: string; output?: unknown; error?: { message: string; status?: number } };
const is = (e: ModelEvent | undefined, a: { type: string }) => e?.type === a.type;

export function facts(s: Snapshot, trail: Trail<Snapshot>) {
  const e = trail.at(-1)?.event;
  const open = callsOpen(s);
  expect(s.context.reference).toBe(REF);
  if (s.matches('loading')) expect(open.loadPayPage).toEqual({ reference: REF, key: KEY });
  // Only a booking waiting for its payment can be paid, for its own amount, with the link's own key.
  if (s.matches('paying')) {
    expect(open.cardPayment).toEqual({ booking: { link: { reference: REF, key: KEY }, payer: { name: 'Margaret Ellis', email: '' } }, amountPence: 6200, intentId: null });
  }
  expect(s.can({ type: 'pay.start' })).toBe(s.matches('ready'));
  if ((is(e, readKey.done()) && (e as Answer).output === null) || is(e, readKey.fails(null))) expect([s.value, s.context.invalid]).toEqual(['closed', true]);
  if (is(e, load.done())) {
    const state = ((e as Answer).output as PayPage).state;
    expect([s.value, s.context.page?.state]).toEqual([state === 'awaiting' ? 'ready' : 'closed', state]);
  }
  if (is(e, load.fails(null))) {
    const status = (e as Answer).error?.status;
    expect(s.value).toBe(status === 404 ? 'closed' : 'failed');
    expect(s.context.invalid).toBe(status === 404);
  }
  if (is(e, card.done())) expect([s.value, s.context.paid]).toEqual(['paid', booked]);
  if (e?.type === 'pay.close') expect(s.value).toBe('loading');
}

export const offers = (s: Snapshot): ModelEvent<PayLinkEvent>[] => (s.matches('ready') ? [{ type: 'pay.start' }]
  : s.matches('failed') ? [{ type: 'retry' }] : s.matches('paying') ? [{ type: 'pay.close' }] : []);

export const model: Model<typeof machine> = {
  name: 'payment link machine',
  machine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.context.key, s.context.page?.state ?? null, s.context.invalid, s.context.paid !== null, s.context.error]),
  facts,
  offers,
  deciding: ['loadPayPage'],
  factsTitle: "issue 43's payment links",
  services: ['readPayKey', 'loadPayPage', 'cardPayment'],
  describeState: (s) => String(s.value),
  depth: () => 6,
};
