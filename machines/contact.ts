// SPEC 2 'Contact Us' and SPEC 8 'Contact': the /contactus form's sending.
// editing -> sending -> 'Form Submitted' (the form starts again empty) or
// 'Submission Failed' with the server's text (what was typed is kept).
// Invoked by the app machine while a page of the site area is open.
import { assertEvent, assign, setup } from 'xstate';
import type { ContactForm } from '../src/domain/schemas';
import { errorText, provided } from './shared';

export interface ContactContext {
  /** 'Submission Failed' text: the server's error, or the client's. */
  error: string | null;
  /** The confirmation the server sent with 'Form Submitted'. */
  message: string | null;
  /** Counts sent messages: the view starts a new, empty form for each. */
  sent: number;
}

export type ContactEvent = { type: 'contact.submit'; form: ContactForm } | { type: 'dialog.closed' };

export const contactMachine = setup({
  types: {
    context: {} as ContactContext,
    events: {} as ContactEvent,
  },
  actors: {
    /** POST /contact-us: the server's confirmation text; a failure carries the server's error text. */
    sendContact: provided<{ message: string }, ContactForm>('sendContact'),
  },
}).createMachine({
  id: 'contact',
  context: { error: null, message: null, sent: 0 },
  initial: 'editing',
  states: {
    editing: {
      on: { 'contact.submit': { target: 'sending', actions: assign({ error: null, message: null }) } },
    },
    sending: {
      tags: 'busy',
      invoke: {
        src: 'sendContact',
        input: ({ event }) => {
          assertEvent(event, 'contact.submit');
          return event.form;
        },
        onDone: {
          target: 'submitted',
          actions: assign({ message: ({ event }) => event.output.message, sent: ({ context }) => context.sent + 1 }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    // SPEC 8: 'Form Submitted'.
    submitted: {
      on: { 'dialog.closed': { target: 'editing', actions: assign({ message: null }) } },
    },
    // SPEC 8: 'Submission Failed' with the server's error text.
    failed: {
      on: { 'dialog.closed': { target: 'editing', actions: assign({ error: null }) } },
    },
  },
});
