// Find my booking (issue 27): the reference and the e-mail address; the link goes to the booking's own address, and
// the answer is the same whether or not they match.
import { Form } from 'react-final-form';
import { TextField } from '../../components/TextField';
import { findErrors } from '../../../domain/manageRules';
import { useManage, useManageRef } from './manageActor';

export function FindBookingView() {
  const manage = useManageRef();
  const sending = useManage((s) => s.matches({ find: 'sending' }));
  const sent = useManage((s) => s.context.findSent);
  const error = useManage((s) => s.context.error);
  const fieldErrors = useManage((s) => s.context.fieldErrors) as Record<string, string | undefined>;
  return (
    <div className="page manage-page narrow">
      <h1>Find your booking</h1>
      <p className="lead">Lost the e-mail with your booking&apos;s link? Enter your booking reference and the e-mail address you booked with, and we will e-mail you a new link to see, change or cancel it and to get a receipt.</p>
      {sent ? (
        <section className="panel" aria-labelledby="sent-title">
          <h2 id="sent-title" className="panel-title">Check your e-mail</h2>
          <p role="status">{sent}</p>
          <p className="muted">The link works for this booking only. If nothing arrives, check the reference on your confirmation, or call us.</p>
          <button type="button" className="btn btn-secondary" onClick={() => manage.send({ type: 'find.again' })}>Find another booking</button>
        </section>
      ) : (
        <Form<{ reference: string; email: string }>
          onSubmit={(v) => { manage.send({ type: 'find.submit', reference: v.reference, email: v.email }); }}
          validate={(v) => findErrors(v)}
          initialValues={{ reference: '', email: '' }}
          render={({ handleSubmit }) => (
            <form className="panel" noValidate onSubmit={handleSubmit} aria-labelledby="find-title">
              <h2 id="find-title" className="panel-title">Your booking</h2>
              {error && <p className="banner-error" role="alert">{error.message}</p>}
              <TextField name="reference" label="Booking reference" placeholder="BK-7KQ2M9XD" autoComplete="off" required
                hint="It is on your confirmation e-mail, starting BK-." />
              {fieldErrors.reference && <p className="field-error" role="alert">{fieldErrors.reference}</p>}
              <TextField name="email" label="E-mail address" type="email" autoComplete="email" required />
              {fieldErrors.email && <p className="field-error" role="alert">{fieldErrors.email}</p>}
              <button type="submit" className="btn btn-primary" disabled={sending}>{sending ? 'Sending...' : 'Send me the link'}</button>
            </form>
          )}
        />
      )}
    </div>
  );
}
