// The console's pages that are states of its own machine (./operator.ts): the mail queue, the operator data and the
// accounts' export. (The booking page is in ./operatorSetup.ts; newer pages are child machines, ./consolePage.ts.)
import { assertEvent, assign } from 'xstate';
import { locationOfScreen } from '../src/domain/screens';
import { operatorSetup, searchOfSection, SESSION_ENDED, showError } from './operatorSetup';

/** The mail queue: the messages of one status, and a failed one sent again. */
export const mailPage = operatorSetup.createStateConfig({
  meta: { screen: 'operatorMail' },
  entry: { type: 'setLocation', params: ({ context }) => ({ location: locationOfScreen('operatorMail', context.mailStatus === 'failed' ? '' : `?status=${context.mailStatus}`) }) },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadMail',
        input: ({ context }) => ({ status: context.mailStatus }),
        onDone: { target: 'ready', actions: assign({ mail: ({ event }) => event.output }) },
        onError: [
          SESSION_ENDED,
          showError('failed'),
        ],
      },
    },
    ready: { on: { 'mail.retry': { target: 'retrying', actions: 'clearMessages' } } },
    failed: { on: { retry: 'loading' } },
    retrying: {
      tags: 'busy',
      invoke: {
        src: 'retryMail',
        input: ({ event }) => {
          assertEvent(event, 'mail.retry');
          return { id: event.id };
        },
        onDone: { target: 'loading', actions: assign({ notice: 'The message will be sent again now.' }) },
        onError: [
          SESSION_ENDED,
          showError('loading'),
        ],
      },
    },
  },
});

/** Operator data (administrators; other staff: their drivers and cars): one part at a time; each change saved, then the part loaded again. */
export const dataPage = operatorSetup.createStateConfig({
  meta: { screen: 'operatorData' },
  entry: [
    assign({ data: null }),
    { type: 'setLocation', params: ({ context }) => ({ location: locationOfScreen('operatorData', searchOfSection(context.dataSection)) }) },
  ],
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadData',
        input: ({ context }) => ({ section: context.dataSection }),
        onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output }) },
        onError: [
          SESSION_ENDED,
          showError('failed'),
        ],
      },
    },
    ready: { on: { 'data.save': { target: 'saving', actions: assign({ error: null, notice: null, password: null }) } } },
    failed: { on: { retry: 'loading' } },
    saving: {
      tags: 'busy',
      invoke: {
        src: 'saveData',
        input: ({ event }) => {
          assertEvent(event, 'data.save');
          return { change: event.change };
        },
        onDone: { target: 'loading', actions: assign({ notice: ({ event }) => event.output.done, password: ({ event }) => event.output.password ?? null }) },
        onError: [
          SESSION_ENDED,
          showError('ready'),
        ],
      },
    },
  },
});

/** The accounts' export: the bookings picked up in a range of days, as a CSV file. */
export const exportPage = operatorSetup.createStateConfig({
  meta: { screen: 'operatorExport' },
  entry: { type: 'setLocation', params: () => ({ location: locationOfScreen('operatorExport') }) },
  initial: 'idle',
  states: {
    idle: { on: { 'export.download': { target: 'downloading', actions: 'clearMessages' } } },
    downloading: {
      invoke: {
        src: 'exportCsv',
        input: ({ event }) => {
          assertEvent(event, 'export.download');
          return { from: event.from, to: event.to };
        },
        onDone: { target: 'idle', actions: assign({ notice: 'The file has been downloaded.' }) },
        onError: [
          SESSION_ENDED,
          showError('idle'),
        ],
      },
    },
  },
});
