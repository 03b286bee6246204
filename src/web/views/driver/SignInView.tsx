// A driver's sign-in at /driver (issue 41 §2): the mobile the office has for them, then the 6-digit code texted to it
// ("Send a new code", "Use another number"). A refusal naming a field shows under it; any other above the form.
import { Form, Field } from 'react-final-form';
import { RequiredMark } from '../../components/fields';
import { useDriver, useDriverRef } from './driverActor';

const MOBILE_MISSING = 'Enter your mobile number, e.g. 07700 900123.';
const CODE_SHAPE = 'Enter the 6-digit code from the text.';

export function SignInView() {
  const onCode = useDriver((s) => s.matches({ signedOut: 'code' }) || s.matches({ signedOut: 'signingIn' })
    || (s.matches({ signedOut: 'sendingCode' }) && s.context.codeSent !== null));
  const error = useDriver((s) => s.context.error);
  // A refusal of the field on screen shows under it; any other (too many tries, the connection) above the form.
  const banner = error && error.field !== (onCode ? 'code' : 'mobile') ? error.message : null;
  return (
    <section className="drv-page drv-signin" aria-labelledby="drv-signin-title">
      <h1 id="drv-signin-title" tabIndex={-1}>Driver sign-in</h1>
      <p className="drv-lead">
        {onCode ? 'We have texted you a code. Enter it below to see your jobs.' : 'Sign in with the mobile number the office has for you. We text you a 6-digit code: no password needed.'}
      </p>
      {banner && <p className="banner-error" role="alert">{banner}</p>}
      {onCode ? <CodeForm /> : <MobileForm />}
    </section>
  );
}

function MobileForm() {
  const actor = useDriverRef();
  const sending = useDriver((s) => s.matches({ signedOut: 'sendingCode' }));
  const mobile = useDriver((s) => s.context.mobile);
  const fieldError = useDriver((s) => (s.context.error?.field === 'mobile' ? s.context.error.message : null));
  return (
    <Form<{ mobile: string }>
      initialValues={{ mobile }}
      validate={(v) => (v.mobile?.trim() ? {} : { mobile: MOBILE_MISSING })}
      onSubmit={(v) => { actor.send({ type: 'code.request', mobile: v.mobile }); }}
      render={({ handleSubmit }) => (
        <form className="drv-card drv-form" onSubmit={handleSubmit} noValidate>
          <DriverField name="mobile" label="Mobile number" type="tel" inputMode="tel" autoComplete="tel" serverError={fieldError} />
          <button type="submit" className="btn btn-primary drv-btn" disabled={sending} aria-busy={sending || undefined}>
            {sending ? 'Sending...' : 'Text me a code'}
          </button>
        </form>
      )}
    />
  );
}

function CodeForm() {
  const actor = useDriverRef();
  const busy = useDriver((s) => s.hasTag('busy'));
  const signingIn = useDriver((s) => s.matches({ signedOut: 'signingIn' }));
  const sending = useDriver((s) => s.matches({ signedOut: 'sendingCode' }));
  const sent = useDriver((s) => s.context.codeSent);
  const mobile = useDriver((s) => s.context.mobile);
  const canResend = useDriver((s) => s.can({ type: 'code.resend' }));
  const canBack = useDriver((s) => s.can({ type: 'code.back' }));
  const fieldError = useDriver((s) => (s.context.error?.field === 'code' ? s.context.error.message : null));
  return (
    <Form<{ code: string }>
      initialValues={{ code: '' }}
      validate={(v) => (/^\s*\d{6}\s*$/.test(v.code ?? '') ? {} : { code: CODE_SHAPE })}
      onSubmit={(v) => { actor.send({ type: 'code.submit', code: v.code.replace(/\s+/g, '') }); }}
      render={({ handleSubmit }) => (
        <form className="drv-card drv-form" onSubmit={handleSubmit} noValidate>
          {sent && <p className="drv-sent" role="status">{sent}</p>}
          <p className="drv-muted">Sent to <strong>{mobile}</strong>.</p>
          <DriverField name="code" label="Code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} serverError={fieldError} />
          <button type="submit" className="btn btn-primary drv-btn" disabled={busy} aria-busy={signingIn || undefined}>
            {signingIn ? 'Signing in...' : 'Sign in'}
          </button>
          <div className="drv-form-more">
            {(canResend || sending) && (
              <button type="button" className="btn btn-secondary drv-btn" disabled={busy} onClick={() => actor.send({ type: 'code.resend' })}>
                {sending ? 'Sending...' : 'Send a new code'}
              </button>
            )}
            {(canBack || busy) && (
              <button type="button" className="drv-link" disabled={busy} onClick={() => actor.send({ type: 'code.back' })}>Use another number</button>
            )}
          </div>
        </form>
      )}
    />
  );
}

/** A labelled input, with the form's own check or the server's refusal of it under it (and described by it). */
function DriverField({ name, label, type = 'text', inputMode, autoComplete, maxLength, serverError }: {
  name: string; label: string; type?: string; inputMode?: 'tel' | 'numeric'; autoComplete?: string; maxLength?: number;
  serverError: string | null;
}) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => {
        const error = (meta.touched && meta.error ? String(meta.error) : null) ?? (meta.dirtySinceLastSubmit ? null : serverError);
        return (
          <div className="field drv-field">
            <label htmlFor={`drv-${name}`}>{label}<RequiredMark /></label>
            <input
              id={`drv-${name}`} {...input} type={type} inputMode={inputMode} autoComplete={autoComplete} maxLength={maxLength}
              aria-required="true" aria-invalid={error ? true : undefined} aria-describedby={error ? `drv-${name}-error` : undefined}
            />
            {error && <p className="field-error" id={`drv-${name}-error`}>{error}</p>}
          </div>
        );
      }}
    </Field>
  );
}
