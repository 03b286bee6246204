// SPEC 2 '/contactus' and SPEC 8 'Contact': the contact form. The machine
// (machines/contact.ts) sends it and decides the dialogs; a sent message starts
// a new, empty form.
import { Form } from 'react-final-form';
import { Field, useForm } from 'react-final-form';
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { contactMachine } from '../../../../machines/contact';
import { QUERY_REASONS, type ContactForm } from '../../../domain/contactSchemas';
import { validateContactForm, type ContactValues } from '../../../domain/contactForm';
import { useContactActor, useSettings } from '../../appActor';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { Honeypot } from '../../components/Honeypot';
import { telHref } from '../../components/SiteBar';
import '../../screens.css';

const EMPTY: ContactValues = {
  firstName: '', lastName: '', email: '', telephone: '', queryReason: 'Booking', bookingNumber: '', comments: '', website: '',
};

export function ContactView() {
  const actor = useContactActor();
  const settings = useSettings();
  return (
    <div className="site-page">
      <h1>Contact Us</h1>
      <p className="lead">Questions about a booking, an invoice, something left in a car, or anything else: send us a message and we will reply by e-mail or phone.</p>
      <div className="contact-layout">
        {actor && <ContactFormPanel actor={actor} />}
        <aside className="contact-aside" aria-labelledby="contact-direct">
          <h2 id="contact-direct" className="panel-title">Talk to us</h2>
          <address>
            {settings.Company_Contact_Info && <span>Phone: <a href={telHref(settings.Company_Contact_Info)}>{settings.Company_Contact_Info}</a></span>}
            {settings.Company_Email && <span>E-mail: <a href={`mailto:${settings.Company_Email}`}>{settings.Company_Email}</a></span>}
            {settings.Company_Address && <span>{settings.Company_Address}</span>}
          </address>
          <p className="muted">For a pickup in the next few hours, please call: we answer 24 hours a day.</p>
        </aside>
      </div>
    </div>
  );
}

/** The form starts again, empty and untouched, after each message sent; its controls stay, so focus can return to Send. */
function EmptyAfterSending({ sent }: { sent: number }) {
  const form = useForm();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    form.restart(EMPTY);
  }, [sent, form]);
  return null;
}

function ContactFormPanel({ actor }: { actor: ActorRefFrom<typeof contactMachine> }) {
  const sending = useSelector(actor, (s) => s.matches('sending'));
  const submitted = useSelector(actor, (s) => s.matches('submitted'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const sent = useSelector(actor, (s) => s.context.sent);
  const message = useSelector(actor, (s) => s.context.message);
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <>
      <Form<ContactValues>
        initialValues={EMPTY}
        validate={validateContactForm}
        onSubmit={(v) => {
          const form = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (x ?? '').trim()])) as unknown as ContactForm;
          actor.send({ type: 'contact.submit', form });
        }}
        render={({ handleSubmit }) => (
          <form className="panel" onSubmit={handleSubmit} noValidate aria-label="Contact Us">
            <EmptyAfterSending sent={sent} />
            <div className="row">
              <TextField name="firstName" label="First name" autoComplete="given-name" />
              <TextField name="lastName" label="Last name" autoComplete="family-name" />
            </div>
            <div className="row">
              <TextField name="email" label="Email" type="email" autoComplete="email" hint="An e-mail address or a telephone number, so we can reply." />
              <TextField name="telephone" label="Telephone" type="tel" autoComplete="tel" />
            </div>
            <div className="row">
              <Field<string> name="queryReason">
                {({ input }) => (
                  <div className="field">
                    <label htmlFor="queryReason">Reason for your query</label>
                    <select id="queryReason" {...input}>
                      {QUERY_REASONS.map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  </div>
                )}
              </Field>
              <TextField name="bookingNumber" label="Booking number (if you have one)" autoComplete="off" placeholder="BK-..." />
            </div>
            <TextField name="comments" label="Your message" type="textarea" />
            <Honeypot />
            <button type="submit" className="btn btn-primary btn-block" disabled={sending}>{sending ? 'Sending...' : 'Send message'}</button>
          </form>
        )}
      />
      {/* SPEC 8 'Contact'. */}
      {submitted && (
        <Dialog title="Form Submitted" tone="info" onClose={() => actor.send({ type: 'dialog.closed' })}><p>{message}</p></Dialog>
      )}
      {failed && (
        <Dialog title="Submission Failed" onClose={() => actor.send({ type: 'dialog.closed' })}><p>{error}</p></Dialog>
      )}
    </>
  );
}
