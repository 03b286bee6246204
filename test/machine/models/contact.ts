// The model of machines/contact.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../contact.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { contactMachine, type ContactEvent } from '../../../machines/contact';
import type { ContactForm } from '../../../src/domain/schemas';
import { answers, type Model, type ModelEvent, type Trail } from '../modelPaths';

export type Snapshot = SnapshotFrom<typeof contactMachine>;

export const sendContact = answers(contactMachine, 'sendContact');
export const SUBMITTED = 'Your form has been submitted successfully!. Thank You for Contacting';

export const form: ContactForm = {
  firstName: 'Amelia', lastName: 'Hart', email: 'amelia@example.com', telephone: '+447700900123',
  queryReason: 'Lost Item', bookingNumber: 'BK-7KQ2M9A4', comments: 'I left an umbrella in the car.', website: '',
};

export const EVENTS: ModelEvent<ContactEvent>[] = [
  { type: 'contact.submit', form },
  { type: 'dialog.closed' },
  sendContact.done({ message: SUBMITTED }),
  sendContact.fails(new Error('email: Expected a valid e-mail address')),
];

export const isSuccess = (e: ModelEvent | undefined) => e?.type === sendContact.done().type;
export const isFailure = (e: ModelEvent | undefined) => e?.type === sendContact.fails(null).type;

export function spec(s: Snapshot, trail: Trail<Snapshot>) {
  const last = trail.at(-1)?.event;
  // One sent message counts once: the view opens a new, empty form for each.
  expect(s.context.sent).toBe(trail.filter((step) => isSuccess(step.event)).length);
  // SPEC 8: 'Form Submitted' with the server's confirmation.
  if (isSuccess(last)) expect([s.value, s.context.message, s.context.error]).toEqual(['submitted', SUBMITTED, null]);
  // SPEC 8: 'Submission Failed' with the server's error text.
  if (isFailure(last)) expect([s.value, s.context.error]).toEqual(['failed', 'email: Expected a valid e-mail address']);
  // A submit sends (the machine waits, tagged busy, so the page shows it) and clears the last outcome.
  if (last?.type === 'contact.submit') {
    expect(s.value).toBe('sending');
    expect(s.hasTag('busy')).toBe(true);
    expect([s.context.message, s.context.error]).toEqual([null, null]);
  }
  // Closing either dialog returns to the form with no message left over.
  if (last?.type === 'dialog.closed' && ['submitted', 'failed'].includes(trail.at(-2)?.state.value as string)) {
    expect([s.value, s.context.message, s.context.error]).toEqual(['editing', null, null]);
  }
  // Nothing is sent twice: a second submit while one is on its way is not taken.
  if (s.matches('sending')) expect(s.can({ type: 'contact.submit', form })).toBe(false);
}

/** SPEC 2 'Contact Us' and SPEC 8: the form's Send, and the dialog of either answer closes. */
export const offers = (s: Snapshot): ModelEvent<ContactEvent>[] => (s.matches('editing') ? [{ type: 'contact.submit', form }]
  : s.matches('submitted') || s.matches('failed') ? [{ type: 'dialog.closed' }] : []);

export const model: Model<typeof contactMachine> = {
  name: 'contact machine',
  machine: contactMachine,
  events: EVENTS,
  inputs: { 'the contact page': undefined },
  serialize: (s) => JSON.stringify([s.value, s.context.sent > 0]),
  facts: spec,
  offers,
  factsTitle: "SPEC 8's contact outcomes",
  services: ['sendContact'],
  describeState: (s) => String(s.value),
  depth: () => 6,
};
