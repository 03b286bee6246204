// Model-based tests of machines/contact.ts (./modelPaths.ts): SPEC 2 'Contact Us' and SPEC 8 'Contact': the
// form is sent once per submit; success shows the server's confirmation and starts a new, empty form; failure
// shows the server's error text and keeps what was typed.
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { contactMachine, type ContactEvent } from '../../machines/contact';
import type { ContactForm } from '../../src/domain/schemas';
import { answers, run, testModel, type Model, type ModelEvent, type Trail } from './modelPaths';

type Snapshot = SnapshotFrom<typeof contactMachine>;

const sendContact = answers(contactMachine, 'sendContact');
const SUBMITTED = 'Your form has been submitted successfully!. Thank You for Contacting';

const form: ContactForm = {
  firstName: 'Amelia', lastName: 'Hart', email: 'amelia@example.com', telephone: '+447700900123',
  queryReason: 'Lost Item', bookingNumber: 'BK-7KQ2M9', comments: 'I left an umbrella in the car.',
};

const EVENTS: ModelEvent<ContactEvent>[] = [
  { type: 'contact.submit', form },
  { type: 'dialog.closed' },
  sendContact.done({ message: SUBMITTED }),
  sendContact.fails(new Error('email: Expected a valid e-mail address')),
];

const isSuccess = (e: ModelEvent | undefined) => e?.type === sendContact.done().type;
const isFailure = (e: ModelEvent | undefined) => e?.type === sendContact.fails(null).type;

function spec(s: Snapshot, trail: Trail<Snapshot>) {
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

const model: Model<typeof contactMachine> = {
  name: 'contact machine',
  machine: contactMachine,
  events: EVENTS,
  inputs: { 'the contact page': undefined },
  serialize: (s) => JSON.stringify([s.value, s.context.sent > 0]),
  facts: spec,
  factsTitle: "SPEC 8's contact outcomes",
  services: ['sendContact'],
  describeState: (s) => String(s.value),
  depth: () => 6,
};

testModel(model);

describe('what the machine does on its way', () => {
  it('sends the form as typed, and again after a failure once the visitor submits again', async () => {
    const sut = run(model, undefined);
    await sut.exec({ type: 'contact.submit', form });
    await sut.exec(sendContact.fails(new Error('Could not reach the server')));
    await sut.exec({ type: 'dialog.closed' });
    await sut.exec({ type: 'contact.submit', form: { ...form, comments: 'Black umbrella, back seat.' } });
    expect(sut.calls).toEqual([
      { service: 'sendContact', input: form },
      { service: 'sendContact', input: { ...form, comments: 'Black umbrella, back seat.' } },
    ]);
    sut.stop();
  });
});
