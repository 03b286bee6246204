// SPEC 2 'Profile' and 5 'Profile': Name (required), Email (required), Phone
// and Save. SPEC 8: 'Passenger Details Updated', or the server's message, or
// 'An error occurred. Please try again later.'. Issue 24: a new e-mail also
// asks for the current password.
import { useMemo } from 'react';
import { Form } from 'react-final-form';
import { AccountActor } from '../../appActor';
import { TextField } from '../../components/TextField';
import { emailKey, emailProblem } from '../../../domain/fields';
import { CURRENT_PASSWORD_NEEDED } from '../../../domain/messages';
import { formatPhone, isPhone, normalisePhone, PHONE_MESSAGE } from '../../../domain/phone';
import '../../screens.css';

interface Values { name: string; email: string; phone: string; currentPassword: string }

/** A different address, not just other capitals or spaces (the server compares with the same rule). */
const emailChanged = (typed: string | undefined, stored: string | undefined) => emailKey(typed) !== emailKey(stored);

function validator(storedEmail: string | undefined) {
  return (v: Partial<Values>): Partial<Record<keyof Values, string>> => {
    const errors: Partial<Record<keyof Values, string>> = {};
    if (!v.name?.trim()) errors.name = 'Name is required';
    const email = emailProblem(v.email);
    if (email) errors.email = email;
    if (v.phone?.trim() && !isPhone(v.phone)) errors.phone = PHONE_MESSAGE;
    if (emailChanged(v.email, storedEmail) && !v.currentPassword) errors.currentPassword = CURRENT_PASSWORD_NEEDED;
    return errors;
  };
}

export function MyAccountView() {
  const actor = AccountActor.useActorRef();
  const passenger = AccountActor.useSelector((s) => s.context.session?.passenger ?? null);
  const saving = AccountActor.useSelector((s) => s.matches({ myAccount: 'saving' }));
  const error = AccountActor.useSelector((s) => s.context.error);
  const notice = AccountActor.useSelector((s) => s.context.notice);
  // New initial values only when the stored passenger changes (after a save), so typing is never reset.
  const initial = useMemo<Values>(() => ({
    name: passenger?.passenger_name ?? '', email: passenger?.passenger_email ?? '', phone: formatPhone(passenger?.passenger_contact_no),
    currentPassword: '',
  }), [passenger?.passenger_name, passenger?.passenger_email, passenger?.passenger_contact_no]);
  const validate = useMemo(() => validator(passenger?.passenger_email), [passenger?.passenger_email]);
  const dismiss = () => actor.send({ type: 'message.dismissed' });

  return (
    <div className="account-page">
      <div className="account-head">
        <div>
          <h1>My Account</h1>
          <p className="muted account-sub">The contact details we use for your bookings and confirmations.</p>
        </div>
      </div>
      {notice && (
        <div className="banner-ok account-banner" role="status">
          <span>{notice}</span>
          <button type="button" className="banner-dismiss" aria-label="Dismiss message" onClick={dismiss}>×</button>
        </div>
      )}
      {error && (
        <div className="banner-error account-banner" role="alert">
          <span>{error}</span>
          <button type="button" className="banner-dismiss" aria-label="Dismiss message" onClick={dismiss}>×</button>
        </div>
      )}
      <Form<Values>
        initialValues={initial}
        validate={validate}
        onSubmit={(v) => {
          actor.send({
            type: 'profile.save',
            profile: {
              name: v.name.trim(), email: v.email.trim(), phone: normalisePhone(v.phone) ?? '',
              ...(emailChanged(v.email, passenger?.passenger_email) ? { currentPassword: v.currentPassword } : {}),
            },
          });
        }}
        render={({ handleSubmit, pristine, values }) => (
          <form className="panel profile-form" onSubmit={handleSubmit} noValidate aria-labelledby="profile-title">
            <h2 id="profile-title" className="panel-title">Profile</h2>
            <TextField name="name" label="Name" required autoComplete="name" />
            <TextField name="email" label="Email" required type="email" autoComplete="email" hint="You sign in with this address." />
            {emailChanged(values.email, passenger?.passenger_email) && (
              <TextField name="currentPassword" label="Current password" required type="password" autoComplete="current-password"
                hint="Needed to change the e-mail you sign in with. Other devices will be signed out." />
            )}
            <TextField name="phone" label="Phone" type="tel" autoComplete="tel" placeholder="+44 20 7946 0000" />
            <div className="profile-actions">
              <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving || undefined}>
                {saving && <span className="spinner spinner-small" aria-hidden="true" />}
                {saving ? 'Saving...' : 'Save'}
              </button>
              {!pristine && !saving && <span className="muted small">You have unsaved changes.</span>}
            </div>
          </form>
        )}
      />
    </div>
  );
}
