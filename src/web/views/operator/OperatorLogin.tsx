// Staff sign-in at /operator/login (issue 26): "E-mail", "Password", "Sign in".
import { Form } from 'react-final-form';
import { TextField } from '../../components/TextField';
import { useSettings } from '../../appActor';
import { emailProblem } from '../../../domain/fields';
import { MESSAGES } from '../../../domain/operatorDesk';
import { useOperator, useOperatorRef } from './operatorActor';

interface Values { email: string; password: string }

function validate(v: Partial<Values>) {
  const errors: Partial<Record<keyof Values, string>> = {};
  const email = emailProblem(v.email);
  if (email) errors.email = email;
  if (!v.password) errors.password = 'Enter your password.';
  return errors;
}

/** `unsaved`: the session ended while an action was being saved, which the message then says was not. */
export function OperatorLogin({ unsaved = false }: { unsaved?: boolean }) {
  const actor = useOperatorRef();
  const settings = useSettings();
  const busy = useOperator((s) => s.matches({ signedOut: 'signingIn' }));
  const message = useOperator((s) => s.context.error?.message ?? null);
  const error = unsaved && message === MESSAGES.sessionEnded ? MESSAGES.sessionEndedUnsaved : message;
  return (
    <main id="main" className="op-login">
      <section className="op-login-card" aria-labelledby="op-login-title">
        <p className="op-eyebrow">{settings.Company_Name || 'Operator'} · Office</p>
        <h1 id="op-login-title" tabIndex={-1}>Staff sign-in</h1>
        <p className="muted">The bookings board, dispatch, cancellations and refunds, and the mail queue.</p>
        {error && <p className="banner-error" role="alert">{error}</p>}
        <Form<Values>
          initialValues={{ email: '', password: '' }}
          validate={validate}
          onSubmit={(v) => { actor.send({ type: 'signIn', email: v.email.trim(), password: v.password }); }}
          render={({ handleSubmit }) => (
            <form className="op-form" onSubmit={handleSubmit} noValidate aria-label="Staff sign-in">
              <TextField name="email" label="E-mail" required type="email" autoComplete="username" />
              <TextField name="password" label="Password" required type="password" autoComplete="current-password" />
              <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy || undefined}>
                {busy ? 'Signing in...' : 'Sign in'}
              </button>
            </form>
          )}
        />
      </section>
    </main>
  );
}
