// SPEC 2 and 4 'Forgot password': the e-mail, then the six-digit code, then a
// new password. Invoked by the booking wizard with the e-mail it knows; its
// output (the e-mail and the server's message) sends the visitor back to the
// details step as an existing client.
import { assertEvent, assign, setup } from 'xstate';
import type { AuthResponse } from '../src/domain/schemas';
import { PASSWORDS_DO_NOT_MATCH } from '../src/domain/messages';
import { errorText, failure, output, provided } from './shared';

export interface ForgotPasswordInput { email: string }
export interface ForgotPasswordOutput { email: string; message: string }

export type ForgotPasswordEvent =
  | { type: 'reset.requestCode'; email: string }
  | { type: 'reset.verifyCode'; code: string }
  | { type: 'reset.back' }
  | { type: 'reset.setPassword'; password: string; confirm: string };

export interface ForgotPasswordContext {
  email: string;
  /** The code the server accepted, sent again with the new password. */
  code: string;
  message: string;
  error: string | null;
  notice: string | null;
}

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
    input: {} as ForgotPasswordInput,
    output: {} as ForgotPasswordOutput,
  },
  actors: {
    requestResetCode: provided<AuthResponse, { email: string }>('requestResetCode'),
    verifyResetCode: provided<AuthResponse, { email: string; code: string }>('verifyResetCode'),
    resetPassword: provided<AuthResponse, { email: string; code: string; password: string }>('resetPassword'),
  },
  actions: {
    clearMessages: assign({ error: null, notice: null }),
    assignError: assign((_, { error }: { error: unknown }) => ({ error: errorText(error) })),
    assignNotice: assign((_, { message }: AuthResponse) => ({ notice: message })),
  },
  guards: {
    passwordsDiffer: ({ event }) => event.type === 'reset.setPassword' && event.password !== event.confirm,
  },
}).createMachine({
  id: 'forgotPassword',
  context: ({ input }) => ({ email: input.email, code: '', message: '', error: null, notice: null }),
  initial: 'email',
  output: ({ context }) => ({ email: context.email, message: context.message }),
  states: {
    email: {
      on: {
        'reset.requestCode': { target: 'sendingCode', actions: ['clearMessages', assign({ email: ({ event }) => event.email })] },
      },
    },
    sendingCode: {
      tags: 'busy',
      invoke: {
        src: 'requestResetCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'code', actions: { type: 'assignNotice', params: output } },
        onError: { target: 'email', actions: { type: 'assignError', params: failure } },
      },
    },
    code: {
      on: {
        'reset.verifyCode': { target: 'verifying', actions: ['clearMessages', assign({ code: ({ event }) => event.code })] },
        'reset.back': { target: 'email', actions: 'clearMessages' },
      },
    },
    verifying: {
      tags: 'busy',
      invoke: {
        src: 'verifyResetCode',
        input: ({ context }) => ({ email: context.email, code: context.code }),
        onDone: { target: 'password', actions: { type: 'assignNotice', params: output } },
        onError: { target: 'code', actions: { type: 'assignError', params: failure } },
      },
    },
    password: {
      on: {
        'reset.setPassword': [
          { guard: 'passwordsDiffer', actions: assign({ error: PASSWORDS_DO_NOT_MATCH, notice: null }) },
          { target: 'resetting', actions: 'clearMessages' },
        ],
      },
    },
    resetting: {
      tags: 'busy',
      invoke: {
        src: 'resetPassword',
        input: ({ context, event }) => {
          assertEvent(event, 'reset.setPassword');
          return { email: context.email, code: context.code, password: event.password };
        },
        onDone: { target: 'done', actions: assign({ message: ({ event }) => event.output.message, code: '' }) },
        onError: { target: 'password', actions: { type: 'assignError', params: failure } },
      },
    },
    done: { type: 'final' },
  },
});
