import { useRef, useState } from 'react';
import type { FlightCheck } from '../../../domain/flights';
import { flightText, parseFlightNumber, travelReferenceFailure } from '../../../domain/flightNumbers';
import { Field, Form, FormSpy, type FieldRenderProps } from 'react-final-form';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { BookingActor } from '../../bookingActor';
import { Dialog } from '../../components/Dialog';
import { firstInvalidField } from '../../focus';
import { StepNotice } from '../../components/StepNotice';
import { StepIndicator } from '../../components/StepIndicator';
import { TextField } from '../../components/TextField';
import { RequiredMark } from '../../components/fields';
import { useSettledError } from '../../components/settledError';
import { VehicleSummary } from '../../components/VehicleSummary';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { nextAlert, validateDetails, type DetailsValues } from '../../../domain/detailsValidation';
import { formatPhone, isPhone, normalisePhone } from '../../../domain/phone';
import { needsTravelReference } from '../../../domain/forms';
import type { RegistrationData, RegistrationMode } from '../../../domain/schemas';
import { emptyRegistration, type Flights } from '../../../../machines/booking';
import { pathOfScreen } from '../../../domain/screens';
import '../../screens.css';
import { StepHead } from '../../components/StepHead';

type Values = DetailsValues & Omit<Partial<RegistrationData>, 'passengerDetails'> & Partial<Flights> & {
  mode: RegistrationMode; someoneElse?: boolean;
};

const MODES: { value: RegistrationMode; label: string; hint: string }[] = [
  { value: 'guest_login', label: 'Guest', hint: 'Book without an account' },
  { value: 'new_client', label: 'New client', hint: 'Create an account as you book' },
  { value: 'existing_client', label: 'Existing client', hint: 'Sign in with your password' },
];

/** A phone as the machine keeps it: E.164 once it is valid (decision 20), else as typed so far. */
function phoneToKeep(text: string | undefined): string {
  const typed = text?.trim() ?? '';
  return normalisePhone(typed) ?? typed;
}

/**
 * What the machine keeps: the SPEC 3 registration data, never the password of an unsubmitted form. An existing
 * client's form has no phone (the account's is used), so none is sent for them.
 */
function toRegistration(v: Values, withPassword: boolean): RegistrationData {
  return {
    firstName: v.firstName?.trim() ?? '', surname: v.surname?.trim() ?? '',
    number: v.mode === 'existing_client' ? '' : phoneToKeep(v.number),
    email: v.email?.trim() ?? '', username: v.email?.trim() ?? '', privacyAccepted: Boolean(v.privacyAccepted),
    termsAccepted: Boolean(v.termsAccepted), passengerDetails: v.someoneElse ? 'yes' : 'no',
    passengerName: v.passengerName ?? '', passengerLastname: v.passengerLastname ?? '', passengerEmail: v.passengerEmail ?? '',
    passengerPhone: phoneToKeep(v.passengerPhone), additionalInfo: v.additionalInfo ?? '', return_additionalInfo: v.return_additionalInfo ?? '',
    ...(withPassword && v.password ? { password: v.password } : {}),
  };
}

/** A policy to read before accepting it, in a new tab so the form stays as it is. */
function PolicyLink({ to, children }: { to: 'privacy' | 'terms'; children: string }) {
  return (
    <a href={pathOfScreen(to)} target="_blank" rel="noopener">{children}<span className="sr-only"> (opens in a new tab)</span></a>
  );
}

/** A required tick box (the policies): its error is tied to it and appears without moving what is being pressed. */
function Checkbox({ name, children }: { name: string; children: React.ReactNode }) {
  return <Field<boolean> name={name} type="checkbox">{(field) => <CheckboxBody name={name} {...field}>{children}</CheckboxBody>}</Field>;
}

function CheckboxBody({ name, children, input, meta }: { name: string; children: React.ReactNode } & FieldRenderProps<boolean>) {
  const error = useSettledError(meta.touched && meta.error ? (meta.error as string) : undefined);
  return (
    <div className="check">
      <input id={name} type="checkbox" name={input.name} checked={Boolean(input.checked)} onChange={input.onChange}
        onBlur={input.onBlur} onFocus={input.onFocus} aria-required="true" aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined} />
      <label htmlFor={name}>{children}<RequiredMark /></label>
      {error && <p className="field-error" id={`${name}-error`}>{error}</p>}
    </div>
  );
}

export function DetailsView() {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.registration);
  const savedMode = BookingActor.useSelector((s) => s.context.registrationMode);
  const bookingForm = BookingActor.useSelector((s) => s.context.bookingForm);
  const checking = BookingActor.useSelector((s) => s.matches({ details: 'checkingEmail' }));
  const rejected = BookingActor.useSelector((s) => s.matches({ details: 'rejected' }));
  const error = BookingActor.useSelector((s) => s.context.error);
  const [alert, setAlert] = useState<string | null>(null);
  const formEl = useRef<HTMLFormElement>(null);
  const session = BookingActor.useSelector((s) => s.context.session);
  // GUEST_LOGIN is the machine's guard: the guest choice shows when the machine would take it.
  const [guestOffered] = useState(() => actor.getSnapshot().can({ type: 'details.submit', mode: 'guest_login', registration: emptyRegistration() }));
  // A signed-in corporate passenger books for their own account: no choice to make.
  const modes = session ? MODES.slice(0, 1) : MODES.filter((m) => m.value !== 'guest_login' || guestOffered);
  const showFlight = needsTravelReference(bookingForm?.pickup);
  const flightCheck = BookingActor.useSelector((s) => s.context.flightCheck);
  const showReturnFlight = bookingForm?.select_option === 'return' && needsTravelReference(bookingForm.dropoff);
  const [initial] = useState<Values>(() => ({
    ...saved, password: '', someoneElse: saved?.passengerDetails === 'yes',
    number: formatPhone(saved?.number), passengerPhone: formatPhone(saved?.passengerPhone),
    mode: modes.some((m) => m.value === savedMode) ? savedMode : modes[0].value,
    pickup_fight_number: bookingForm?.pickup_fight_number ?? '', return_fight_number: bookingForm?.return_fight_number ?? '',
  }));
  const flightsOf = (v: Values): Flights | undefined => (bookingForm
    ? { pickup_fight_number: v.pickup_fight_number ?? '', return_fight_number: v.return_fight_number ?? '' } : undefined);

  return (
    <div className="page">
      <StepIndicator />
      <StepHead back="quotation" title="Personal details" />
      <StepNotice />
      <div className="two-col">
        <VehicleSummary />
        <Form<Values>
          initialValues={initial}
          validate={(v) => ({
            ...validateDetails(v.mode, { ...v, passengerDetails: v.someoneElse ? 'yes' : 'no' }, isPhone),
            // Issue 42: a flight, train or ferry reference, where the field shows (the API's rule).
            ...travelErrors({ ...bookingForm, ...flightsOf(v) }),
          })}
          onSubmit={(v) => actor.send({ type: 'details.submit', mode: v.mode, registration: toRegistration(v, true), flights: flightsOf(v) })}
          render={({ handleSubmit, values }) => (
            <form ref={formEl} className="panel" noValidate aria-label="Personal details"
              onSubmit={(e) => {
                const message = nextAlert(values.mode, values);
                if (message) setAlert(message);
                return handleSubmit(e);
              }}>
              <FormSpy subscription={{ values: true }} onChange={({ values: v }) => {
                const draft = v as Values;
                actor.send({ type: 'details.changed', mode: draft.mode, registration: toRegistration(draft, false), flights: flightsOf(draft) });
              }} />
              {session && (
                <p className="banner-ok" role="note">
                  Booking for your corporate account: <strong>{session.passenger.passenger_name}</strong>. It will appear in your bookings.
                </p>
              )}
              <fieldset className="modes" hidden={session !== null}>
                <legend className="panel-title">How would you like to book?</legend>
                {modes.map((m) => (
                  <Field key={m.value} name="mode" type="radio" value={m.value}>
                    {({ input }) => (
                      <label className={`mode${input.checked ? ' on' : ''}`}>
                        <input {...input} /> <span><strong>{m.label}</strong><span className="muted small">{m.hint}</span></span>
                      </label>
                    )}
                  </Field>
                ))}
              </fieldset>
              {values.mode !== 'existing_client' && (
                <div className="row">
                  <TextField name="firstName" label="First Name" autoComplete="given-name" required />
                  <TextField name="surname" label="Last Name" autoComplete="family-name" required />
                </div>
              )}
              <TextField name="email" label="Email" type="email" autoComplete="email" required hint="Your booking confirmation is sent here." />
              {values.mode !== 'existing_client' && (
                <TextField name="number" label="Phone Number" type="tel" autoComplete="tel" placeholder="07700 900123" required
                  hint="A UK number, or + and the country code for a number abroad." />
              )}
              {values.mode !== 'guest_login' && (
                <TextField name="password" label="Password" type="password" required
                  autoComplete={values.mode === 'new_client' ? 'new-password' : 'current-password'}
                  hint={values.mode === 'new_client' ? 'At least 6 characters.' : undefined} />
              )}
              {values.mode === 'existing_client' && (
                <RouteLink to="forgotPassword" className="link-button">Forgot your password?</RouteLink>
              )}
              {values.mode === 'new_client' && (
                <>
                  <Checkbox name="privacyAccepted">I accept the <PolicyLink to="privacy">Privacy Policy</PolicyLink></Checkbox>
                  <Checkbox name="termsAccepted">I accept the <PolicyLink to="terms">Terms and Conditions</PolicyLink></Checkbox>
                </>
              )}
              {(showFlight || showReturnFlight) && (
                <div className="row">
                  {showFlight && (
                    <div>
                      <TextField name="pickup_fight_number" label="Flight, train or ferry number" />
                      <FlightAnswer check={flightCheck} typed={values.pickup_fight_number} />
                    </div>
                  )}
                  {showReturnFlight && <TextField name="return_fight_number" label="Return flight, train or ferry number" />}
                </div>
              )}
              <Field name="someoneElse" type="checkbox">
                {({ input }) => (
                  <div className="check">
                    <input id="someoneElse" type="checkbox" name={input.name} checked={Boolean(input.checked)} onChange={input.onChange} />
                    <label htmlFor="someoneElse">I am booking for someone else</label>
                  </div>
                )}
              </Field>
              {values.someoneElse && (
                <fieldset className="subpanel">
                  <legend>Passenger</legend>
                  <div className="row">
                    <TextField name="passengerName" label="Passenger first name" />
                    <TextField name="passengerLastname" label="Passenger last name" />
                  </div>
                  <div className="row">
                    <TextField name="passengerEmail" label="Passenger email" type="email" />
                    <TextField name="passengerPhone" label="Passenger phone" type="tel" />
                  </div>
                </fieldset>
              )}
              <TextField name="additionalInfo" label="Additional information (optional)" type="textarea" />
              {bookingForm?.select_option === 'return' && (
                <TextField name="return_additionalInfo" label="Additional information for the return (optional)" type="textarea" />
              )}
              <div className="actions">
                <RouteLink to="quotation" className="btn btn-secondary">Back</RouteLink>
                <button type="submit" className="btn btn-primary" disabled={checking}>Next</button>
              </div>
            </form>
          )}
        />
      </div>
      {checking && <LoadingOverlay text="Checking your email" />}
      {alert && <Dialog title="Check your details" onClose={() => setAlert(null)} returnFocus={() => firstInvalidField(formEl.current)}><p>{alert}</p></Dialog>}
      {rejected && <Dialog title="Error" onClose={() => actor.send({ type: 'error.dismissed' })}><p>{error}</p></Dialog>}
    </div>
  );
}

function travelErrors(form: Parameters<typeof travelReferenceFailure>[0]): Record<string, string> {
  const failure = travelReferenceFailure(form);
  return failure ? { [failure.field]: failure.message } : {};
}

/**
 * What the flight look-up said of the number typed (issue 42): a flight that does not land at the pickup's airport that
 * day is flagged (the booking goes on); a flight found shows when it lands and its terminal.
 */
function FlightAnswer({ check, typed }: { check: FlightCheck | null; typed: string | undefined }) {
  const flight = parseFlightNumber(typed);
  if (!check || !flight || check.number !== flightText(flight)) return null;
  if (check.warning) return <p className="field-warning" role="status">{check.warning}</p>;
  if (!check.words) return null;
  return <p className="field-hint" role="status">{check.words}{check.terminal ? `, terminal ${check.terminal}` : ''}</p>;
}
