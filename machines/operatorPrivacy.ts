// The console's privacy requests page (issue 43 §4, decision 60; the rules are src/domain/retention.ts): an
// administrator types the e-mail address a passenger asked about, sees everything the database holds about it (a
// readable page, and the same as a JSON file to send them), and erases it after confirming, unless a booking of it is
// still to come. A page of the console run as its child machine (./consolePage.ts). The address is never put in the
// page's URL (the browser's history would keep it): the page is /operator/privacy whatever it shows, so it never tells
// the console another address.
import { assign, sendParent, setup } from 'xstate';
import { privacyEmailProblem, type EraseAnswer, type PrivacyExport } from '../src/domain/retention';
import { provided } from './shared';
import { asCallError, isSessionEnd, SESSION_ENDED_EVENT, SESSION_ENDED_HERE, type ConsolePageInput } from './consolePage';
import type { CallError } from './operatorTypes';

export interface PrivacyContext {
  /** The address looked up (as typed). */
  email: string;
  found: PrivacyExport | null;
  erased: EraseAnswer | null;
  error: CallError | null;
  notice: string | null;
}

export type PrivacyEvent =
  | { type: 'privacy.lookup'; email: string }
  | { type: 'privacy.download' }
  | { type: 'privacy.erase' }
  | { type: 'privacy.confirm' }
  | { type: 'privacy.cancel' };

export const PRIVACY_NOTICES = { downloaded: 'The JSON file has been downloaded: send it to the person who asked.' } as const;

/** Another address: looked up when it is one, else the field's message. */
const lookup = [
  { guard: 'isAddress', target: 'looking', actions: 'lookUp' },
  { actions: 'refuseAddress' },
] as const;

export const privacyMachine = setup({
  types: {
    context: {} as PrivacyContext,
    events: {} as PrivacyEvent,
    input: {} as ConsolePageInput,
  },
  actors: {
    /** POST /operator/privacy/export: everything held about the address (audited). */
    exportPersonalData: provided<PrivacyExport, { email: string }>('exportPersonalData'),
    /** The export saved as a JSON file (nothing is asked of the server again). */
    saveExportFile: provided<void, { found: PrivacyExport }>('saveExportFile'),
    /** POST /operator/privacy/erase (audited). */
    erasePersonalData: provided<EraseAnswer, { email: string }>('erasePersonalData'),
  },
  actions: {
    tellSessionEnded: sendParent(SESSION_ENDED_EVENT),
    lookUp: assign(({ event }: { event: PrivacyEvent }) => ({
      email: event.type === 'privacy.lookup' ? event.email.trim() : '', found: null, erased: null, error: null, notice: null,
    })),
    setError: assign((_, { error }: { error: unknown }) => ({ error: asCallError(error), notice: null })),
    refuseAddress: assign(({ event }: { event: PrivacyEvent }) => ({
      error: { message: privacyEmailProblem(event.type === 'privacy.lookup' ? event.email : '')!, field: 'email', status: 422 }, notice: null,
    })),
  },
  guards: {
    sessionEnded: (_, { error }: { error: unknown }) => isSessionEnd(error),
    /** An address the server takes (the same rule). */
    isAddress: ({ event }) => event.type === 'privacy.lookup' && privacyEmailProblem(event.email) === undefined,
    /** No booking of the address is still to come (the export says; the server checks again). */
    mayErase: ({ context }) => context.found?.erase.allowed === true && context.found.sections.length > 0,
  },
}).createMachine({
  id: 'privacy',
  context: { email: '', found: null, erased: null, error: null, notice: null },
  initial: 'idle',
  states: {
    idle: { on: { 'privacy.lookup': lookup } },
    looking: {
      tags: 'busy',
      invoke: {
        src: 'exportPersonalData',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'found', actions: assign({ found: ({ event }) => event.output }) },
        onError: [SESSION_ENDED_HERE, { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    found: {
      on: {
        'privacy.lookup': lookup,
        'privacy.download': { target: 'downloading', actions: assign({ error: null, notice: null }) },
        'privacy.erase': { guard: 'mayErase', target: 'confirming', actions: assign({ error: null, notice: null }) },
      },
    },
    downloading: {
      tags: 'busy',
      invoke: {
        src: 'saveExportFile',
        input: ({ context }) => ({ found: context.found! }),
        onDone: { target: 'found', actions: assign({ notice: PRIVACY_NOTICES.downloaded }) },
        onError: { target: 'found', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    // The dialog: what is erased and what is kept, and a last chance to go back.
    confirming: {
      on: {
        'privacy.confirm': 'erasing',
        'privacy.cancel': 'found',
      },
    },
    erasing: {
      tags: 'busy',
      invoke: {
        src: 'erasePersonalData',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'erased', actions: assign({ erased: ({ event }) => event.output, found: null }) },
        onError: [SESSION_ENDED_HERE, { target: 'found', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    erased: { on: { 'privacy.lookup': lookup } },
  },
});
