import { useState } from 'react';
import { Form } from 'react-final-form';
import { Link } from 'wouter';
import { create } from 'superstruct';
import { BookingActor } from '../../bookingActor';
import { Dialog } from '../../components/Dialog';
import { StepProgress } from '../../components/StepProgress';
import { TextField } from '../../components/TextField';
import { VehicleSummary } from '../../components/VehicleSummary';
import { nextAlert, validateDetails, type DetailsValues } from '../../../domain/detailsValidation';
import { RegistrationData } from '../../../domain/schemas';

type Values = DetailsValues & { additionalInfo?: string };

export function DetailsView() {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.registration);
  const [alert, setAlert] = useState<string | null>(null);
  const initial: Values = saved ?? { firstName: '', surname: '', email: '', number: '', additionalInfo: '' };

  return (
    <div className="page">
      <StepProgress current={1} />
      <div className="page-head">
        <Link href="/quotationview" className="back-link">← Back</Link>
        <h1>Personal details</h1>
      </div>
      <div className="two-col">
        <VehicleSummary />
        <Form<Values>
          initialValues={initial}
          validate={(v) => validateDetails('guest_login', v)}
          onSubmit={(v) => {
            const registration = create({ ...v, username: v.email, passengerDetails: 'no' }, RegistrationData);
            actor.send({ type: 'details.submit', registration });
          }}
          render={({ handleSubmit, values }) => (
            <form className="panel" noValidate aria-label="Personal details"
              onSubmit={(e) => {
                const message = nextAlert('guest_login', values);
                if (message) setAlert(message);
                return handleSubmit(e);
              }}>
              <h2 className="panel-title">Lead passenger</h2>
              <div className="row">
                <TextField name="firstName" label="First Name" autoComplete="given-name" />
                <TextField name="surname" label="Last Name" autoComplete="family-name" />
              </div>
              <TextField name="email" label="Email" type="email" autoComplete="email" hint="Your booking confirmation is sent here." />
              <TextField name="number" label="Phone Number" type="tel" autoComplete="tel" placeholder="+44 770 090 012" hint="Format +xxx xxx xxx xxx: country code, then three groups of three digits." />
              <TextField name="additionalInfo" label="Additional information (optional)" type="textarea" />
              <div className="actions">
                <Link href="/quotationview" className="btn btn-secondary">Back</Link>
                <button type="submit" className="btn btn-primary">Next</button>
              </div>
            </form>
          )}
        />
      </div>
      {alert && <Dialog title="Check your details" onClose={() => setAlert(null)}><p>{alert}</p></Dialog>}
    </div>
  );
}
