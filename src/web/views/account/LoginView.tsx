// SPEC 2 'Login': an e-mail field, a password field and Sign In. SPEC 8
// 'Sign-in': the machine's error ('Invalid credentials. Please try again.',
// 'An error occurred. Please try again later.', or the server's 429 text).
import { Form } from 'react-final-form';
import { AccountActor, useSettings } from '../../appActor';
import { RouteLink } from '../../components/RouteLink';
import { TextField } from '../../components/TextField';
import { emailProblem } from '../../../domain/fields';
import { BrandMark } from './BrandMark';
import '../../screens.css';

interface Values { email: string; password: string }

function validate(v: Partial<Values>): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  const email = emailProblem(v.email);
  if (email) errors.email = email;
  if (!v.password) errors.password = 'Password is required';
  return errors;
}

export function LoginView() {
  const actor = AccountActor.useActorRef();
  const settings = useSettings();
  const submitting = AccountActor.useSelector((s) => s.matches({ login: 'submitting' }));
  const error = AccountActor.useSelector((s) => s.context.error);
  const company = settings.Company_Name || 'Taxi and chauffeur booking';

  return (
    <div className="login-wrap">
      <RouteLink to="home" className="login-brand" aria-label={`${company}, home`}>
        <BrandMark />
        <span>{company}</span>
      </RouteLink>
      <section className="login-card" aria-labelledby="login-title">
        <p className="login-eyebrow">Corporate Account</p>
        <h1 id="login-title">Sign In to Corporate Account</h1>
        <p className="muted login-lead">See your company's bookings, book journeys for your account and keep your details up to date.</p>
        {error && <p className="banner-error" role="alert">{error}</p>}
        <Form<Values>
          initialValues={{ email: '', password: '' }}
          validate={validate}
          onSubmit={(v) => { actor.send({ type: 'login.submit', email: v.email.trim(), password: v.password }); }}
          render={({ handleSubmit }) => (
            <form className="login-form" onSubmit={handleSubmit} noValidate aria-label="Sign in">
              <TextField name="email" label="Email" required type="email" autoComplete="username" placeholder="name@company.co.uk" />
              <TextField name="password" label="Password" required type="password" autoComplete="current-password" />
              <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting || undefined}>
                {submitting && <span className="spinner spinner-small" aria-hidden="true" />}
                {submitting ? 'Signing in...' : 'Sign In'}
              </button>
            </form>
          )}
        />
        <p className="login-secure small muted">
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2"><rect x="5" y="11" width="14" height="10" rx="2" /><path d="M8 11V7a4 4 0 018 0v4" /></svg>
          Your session is private to this browser and ends when you log out.
        </p>
      </section>
      <p className="login-back"><RouteLink to="home">← Back to the home page</RouteLink></p>
      {settings.Company_Contact_Info && (
        <p className="login-help small">
          No corporate account yet? Call us on{' '}
          <a href={`tel:${settings.Company_Contact_Info.replace(/\s+/g, '')}`}>{settings.Company_Contact_Info}</a>
        </p>
      )}
    </div>
  );
}
