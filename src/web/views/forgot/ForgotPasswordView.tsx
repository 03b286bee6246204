// SPEC 2 'Forgot password': e-mail, verify code, new password; a link back to personal details.
import { Form } from 'react-final-form';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { BookingActor } from '../../bookingActor';
import type { forgotPasswordMachine } from '../../../../machines/forgotPassword';
import { TextField } from '../../components/TextField';
import { emailProblem } from '../../../domain/fields';
import '../../screens.css';

const STEPS = ['email', 'code', 'password'] as const;

/** The flow is its own machine, invoked by the wizard (machines/forgotPassword.ts). */
export function ForgotPasswordView() {
  const flow = BookingActor.useSelector((s) => s.children.forgotPassword as ActorRefFrom<typeof forgotPasswordMachine> | undefined);
  return flow ? <ForgotPasswordSteps actor={flow} /> : null;
}

function ForgotPasswordSteps({ actor }: { actor: ActorRefFrom<typeof forgotPasswordMachine> }) {
  const sub = useSelector(actor, (s) => s.value);
  const email = useSelector(actor, (s) => s.context.email);
  const error = useSelector(actor, (s) => s.context.error);
  const notice = useSelector(actor, (s) => s.context.notice);
  const step = sub === 'sendingCode' ? 'email' : sub === 'verifying' ? 'code' : sub === 'resetting' ? 'password' : sub;
  const busy = useSelector(actor, (s) => s.hasTag('busy'));

  return (
    <div className="page narrow">
      <div className="page-head">
        <RouteLink to="details" className="back-link">← Back to personal details</RouteLink>
      </div>
      <h1>Reset your password</h1>
      <ol className="reset-steps" aria-label="Reset steps">
        {STEPS.map((s, i) => <li key={s} aria-current={s === step ? 'step' : undefined}>{i + 1}. {['Email', 'Verify code', 'New password'][i]}</li>)}
      </ol>
      {error && <p className="field-error banner-error" role="alert">{error}</p>}
      {notice && !error && <p className="banner-ok" role="status">{notice}</p>}
      {step === 'email' && (
        <Form<{ email: string }>
          initialValues={{ email }}
          validate={(v) => { const email = emailProblem(v.email); return email ? { email } : {}; }}
          onSubmit={(v) => actor.send({ type: 'reset.requestCode', email: v.email.trim() })}
          render={({ handleSubmit }) => (
            <form className="panel" onSubmit={handleSubmit} noValidate aria-label="Step 1: your email">
              <p className="muted">Enter the email of your account and we will send you a six-digit code.</p>
              <TextField name="email" label="Email" required type="email" autoComplete="email" />
              <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Sending...' : 'Send code'}</button>
            </form>
          )}
        />
      )}
      {step === 'code' && (
        <Form<{ code: string }>
          validate={(v) => (!v.code?.trim() ? { code: 'Code is required' } : {})}
          onSubmit={(v) => actor.send({ type: 'reset.verifyCode', code: v.code.trim() })}
          render={({ handleSubmit }) => (
            <form className="panel" onSubmit={handleSubmit} noValidate aria-label="Step 2: the code">
              <p className="muted">We sent a code to {email}. It expires in 15 minutes.</p>
              <TextField name="code" label="Code" required autoComplete="one-time-code" />
              <div className="actions">
                <button type="button" className="btn btn-secondary" onClick={() => actor.send({ type: 'reset.back' })}>Back</button>
                <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Checking...' : 'Verify code'}</button>
              </div>
            </form>
          )}
        />
      )}
      {step === 'password' && (
        <Form<{ password: string; confirm: string }>
          validate={(v) => {
            const e: Record<string, string> = {};
            if (!v.password) e.password = 'Password is required';
            else if (v.password.length < 6) e.password = 'Password must be at least 6 characters long';
            if (!v.confirm) e.confirm = 'Confirm password is required';
            return e;
          }}
          onSubmit={(v) => actor.send({ type: 'reset.setPassword', password: v.password, confirm: v.confirm })}
          render={({ handleSubmit }) => (
            <form className="panel" onSubmit={handleSubmit} noValidate aria-label="Step 3: a new password">
              <TextField name="password" label="New password" required type="password" autoComplete="new-password" />
              <TextField name="confirm" label="Confirm new password" required type="password" autoComplete="new-password" />
              <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Saving...' : 'Reset password'}</button>
            </form>
          )}
        />
      )}
    </div>
  );
}
