// New booking (issue 43 §1, machines/phoneBooking.ts): the dispatcher takes a booking on the telephone. The journey is
// typed with the website's own fields and priced by its own price call; a vehicle is chosen; the passenger is found on
// record (or typed); the price may be set by hand with a reason; the passenger pays in the car or by a card payment link.
// The machine says what may be done (prices on screen, a vehicle chosen); the server checks everything again.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Field, Form, FormSpy } from 'react-final-form';
import { create } from 'superstruct';
import type { FormApi } from 'final-form';
import type { phoneBookingMachine, FoundPassenger, PhoneDetails } from '../../../../machines/phoneBooking';
import { BookingForm, HourlyRateForm, type PriceDetail } from '../../../domain/schemas';
import { needsTravelReference, restoreBookingForm, validateBookingForm, type BookingFormDraft } from '../../../domain/forms';
import { HOURLY_DURATIONS, HOURLY_HOUR_OPTIONS, newHourlyForm, validateHourlyForm } from '../../../domain/hourlyForm';
import { MINUTE_OPTIONS } from '../../../domain/forms';
import { validateDetails } from '../../../domain/detailsValidation';
import { isPhone, formatPhone } from '../../../domain/phone';
import { PHONE_PAYMENT_LABELS, manualPriceErrors, officeAccountRefusal, type ManualPrice, type PhonePayment } from '../../../domain/phoneBookings';
import { bookingFieldErrors, type AccountBilling, type AccountField } from '../../../domain/accountPayment';
import { pathWith } from '../../../domain/screens';
import { ukToday } from '../../../domain/ukTime';
import { stopText } from '../../../domain/places';
import { recordDate } from '../../../domain/bookingRecords';
import { useSettings } from '../../appActor';
import { AddressInput } from '../../components/AddressInput';
import { ChoiceSelect, DateField } from '../../components/fields';
import { TextField } from '../../components/TextField';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { StopsField } from '../home/StopsField';
import { LegOptions, ReturnFollowsPickup, ReturnLeg, TimeFields } from '../home/journeyFields';
import { Input } from './dataForm';
import { useOperatorRef, usePage } from './operatorActor';
import './newBooking.css';

type Page = NonNullable<ReturnType<typeof usePage<typeof phoneBookingMachine>>>;

export function NewBookingView() {
  const page = usePage<typeof phoneBookingMachine>();
  if (!page) return <LoadingOverlay text="Opening New booking" />;
  return <NewBooking page={page} />;
}

function NewBooking({ page }: { page: Page }) {
  const done = useSelector(page, (s) => s.matches({ trip: 'done' }));
  return (
    <section className="op-page nb-page" aria-labelledby="nb-title">
      <div className="op-page-head"><h1 id="nb-title" tabIndex={-1}>New booking</h1></div>
      <p className="nb-intro">A booking taken on the telephone, with the website's prices and rules. The passenger gets the usual confirmation and the link to manage it.</p>
      {done ? <Taken page={page} /> : <BookingSteps page={page} />}
    </section>
  );
}

function BookingSteps({ page }: { page: Page }) {
  const [kind, setKind] = useState<'milleage' | 'hourly'>('milleage');
  const error = useSelector(page, (s) => s.context.error);
  const pricing = useSelector(page, (s) => s.matches({ trip: 'pricing' }));
  const offers = useSelector(page, (s) => s.context.offers);
  const journeyError = error && !offers && !pricing ? error : null;
  const changeKind = (next: 'milleage' | 'hourly') => {
    setKind(next);
    page.send({ type: 'journey.changed' });
  };
  return (
    <>
      <Step n={1} title="Journey">
        <fieldset className="segmented nb-kind">
          <legend className="sr-only">Kind of booking</legend>
          <label className={kind === 'milleage' ? 'on' : ''}><input type="radio" name="nb-kind" checked={kind === 'milleage'} onChange={() => changeKind('milleage')} /> Transfer</label>
          <label className={kind === 'hourly' ? 'on' : ''}><input type="radio" name="nb-kind" checked={kind === 'hourly'} onChange={() => changeKind('hourly')} /> Hourly hire</label>
        </fieldset>
        {kind === 'milleage' ? <TransferForm page={page} /> : <HourlyJourneyForm page={page} />}
        {journeyError && <p className="banner-error" role="alert">{journeyError.message}</p>}
      </Step>
      {offers ? <Vehicles page={page} offers={offers} /> : (
        <Step n={2} title="Vehicle"><p className="muted">{pricing ? 'Getting the prices...' : 'Get prices to see the vehicles and their prices for this journey.'}</p></Step>
      )}
      <Details page={page} />
    </>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  const id = `nb-step-${n}`;
  return (
    <section className="op-card nb-step" aria-labelledby={id}>
      <h2 id={id}><span className="nb-step-n" aria-hidden="true">{n}</span>{title}</h2>
      {children}
    </section>
  );
}

/** Prices on screen are for the journey as it was priced: any change to it clears them (the machine forgets them). */
function ClearsPricesOnChange({ page }: { page: Page }) {
  const priced = useSelector(page, (s) => s.matches({ trip: 'priced' }));
  return (
    <FormSpy subscription={{ values: true }} onChange={() => { if (priced) page.send({ type: 'journey.changed' }); }} />
  );
}

/** The server's refusal of a journey's field (422 naming 'pickup', 'bookingForm.pickup', ...), shown under it. */
function useServerError(page: Page, field: string): string | undefined {
  const error = useSelector(page, (s) => s.context.error);
  const f = error?.field?.replace(/^(booking\.)?(bookingForm|hourlyRateForm)\./, '');
  return f === field ? error!.message : undefined;
}

function Address({ page, name, label }: { page: Page; name: string; label: string }) {
  const refused = useServerError(page, name);
  return (
    <Field<string> name={name}>
      {({ input, meta }) => (
        <AddressInput id={`nb-${name}`} label={label} value={input.value} error={meta.touched ? meta.error : undefined} refusal={refused}
          onChange={input.onChange} onBlur={() => input.onBlur()} required />
      )}
    </Field>
  );
}

function PriceButton({ page }: { page: Page }) {
  const pricing = useSelector(page, (s) => s.matches({ trip: 'pricing' }));
  const booking = useSelector(page, (s) => s.matches({ trip: 'booking' }));
  return <button type="submit" className="btn btn-primary" disabled={pricing || booking} aria-busy={pricing || undefined}>{pricing ? 'Getting prices...' : 'Get prices'}</button>;
}

function TransferForm({ page }: { page: Page }) {
  const settings = useSettings();
  const [initial] = useState<BookingFormDraft>(() => restoreBookingForm(null, 0));
  const returnChosen = useRef(false);
  const error = useSelector(page, (s) => s.context.error);
  const stopField = error?.field?.replace(/^(booking\.)?bookingForm\./, '') ?? '';
  return (
    <Form<BookingFormDraft>
      initialValues={initial}
      validate={(v) => validateBookingForm(v) as never}
      onSubmit={(values) => page.send({ type: 'journey.price', journey: { bookingType: 'milleage', form: create(values, BookingForm) } })}
      render={({ handleSubmit, form, values }) => {
        const isReturn = values.select_option === 'return';
        return (
          <form className="quote-form nb-form" onSubmit={handleSubmit} noValidate aria-label="Journey">
            <fieldset className="segmented">
              <legend className="sr-only">One way or return</legend>
              <Field name="select_option" type="radio" value="one_way">
                {({ input }) => <label className={input.checked ? 'on' : ''}><input {...input} /> One way</label>}
              </Field>
              <Field name="select_option" type="radio" value="return">
                {({ input }) => (
                  <label className={input.checked ? 'on' : ''}><input {...input} onChange={(e) => { returnChosen.current = true; input.onChange(e); }} /> Return</label>
                )}
              </Field>
            </fieldset>
            <Address page={page} name="pickup" label="Pickup address" />
            {needsTravelReference(values.pickup) && <TextField name="pickup_fight_number" label="Flight, train or ferry number" placeholder="e.g. BA 117" />}
            <StopsField form={form as FormApi<BookingFormDraft>} stops={values.stops ?? []}
              refusal={error && stopField.startsWith('stops.') ? { field: stopField, message: error.message, text: stopOf(values, stopField) } : null} />
            <Address page={page} name="dropoff" label="Drop-off address" />
            <div className="row">
              <DateField name="pickup_date" label="Pickup date" required min={ukToday()} />
              <TimeFields prefix="pickup" legend="Pickup time" />
            </div>
            <ServerFieldError page={page} fields={['pickup_date', 'pickup_hour']} />
            <LegOptions p="" settings={settings} />
            {isReturn && <ReturnLeg values={values} settings={settings} chosen={returnChosen} />}
            <ReturnFollowsPickup pickupDate={values.pickup_date} isReturn={isReturn} />
            <ClearsPricesOnChange page={page} />
            <PriceButton page={page} />
          </form>
        );
      }}
    />
  );
}

/** The text of the stop a refusal names ('stops.1'), as the server read it. */
const stopOf = (values: BookingFormDraft, field: string) => {
  const stop = values.stops?.[Number(field.split('.')[1])];
  return stop ? stopText(stop) : '';
};

function ServerFieldError({ page, fields }: { page: Page; fields: string[] }) {
  const error = useSelector(page, (s) => s.context.error);
  const f = error?.field?.replace(/^(booking\.)?(bookingForm|hourlyRateForm)\./, '');
  return f && fields.includes(f) ? <p className="field-error" role="alert">{error!.message}</p> : null;
}

const hourlyHours = HOURLY_HOUR_OPTIONS;
const hourlyMinutes = MINUTE_OPTIONS.map((m) => ({ value: m, label: m }));
const durations = HOURLY_DURATIONS.map((d) => ({ value: d, label: `${Number.parseInt(d, 10)} hours` }));

function HourlyJourneyForm({ page }: { page: Page }) {
  const [initial] = useState(() => newHourlyForm(0));
  return (
    <Form<HourlyRateForm>
      initialValues={initial}
      validate={(v) => validateHourlyForm(v) as never}
      onSubmit={(values) => page.send({ type: 'journey.price', journey: { bookingType: 'hourly', form: create(values, HourlyRateForm) } })}
      render={({ handleSubmit }) => (
        <form className="quote-form nb-form" onSubmit={handleSubmit} noValidate aria-label="Journey">
          <Address page={page} name="pickup" label="Pickup address" />
          <div className="row">
            <DateField name="pickup_date" label="Pickup date" required min={ukToday()} />
            <fieldset className="field time-field">
              <legend>Pickup time</legend>
              <div className="time-selects">
                <ChoiceSelect name="pickup_hour" ariaLabel="Pickup time hour" options={hourlyHours} />
                <span aria-hidden="true">:</span>
                <ChoiceSelect name="pickup_min" ariaLabel="Pickup time minute" options={hourlyMinutes} />
              </div>
            </fieldset>
            <ChoiceSelect name="pickup_duration" label="Hours" options={durations} />
          </div>
          <ServerFieldError page={page} fields={['pickup_date', 'pickup_hour']} />
          <ClearsPricesOnChange page={page} />
          <PriceButton page={page} />
        </form>
      )}
    />
  );
}

function Vehicles({ page, offers }: { page: Page; offers: PriceDetail[] }) {
  const chosen = useSelector(page, (s) => s.context.chosen);
  const priced = offers.filter((o) => Number(o.price) > 0);
  return (
    <Step n={2} title="Vehicle">
      {priced.length === 0
        ? <p className="banner-error" role="alert">No vehicle is priced for this journey. Check the addresses, or offer a quote.</p>
        : (
          <fieldset className="nb-vehicles">
            <legend className="sr-only">Vehicle and price</legend>
            {priced.map((o) => {
              const id = `nb-vehicle-${o.company_id}-${o.vehicle_id}`;
              const on = chosen?.vehicle_id === o.vehicle_id && chosen.company_id === o.company_id;
              return (
                <label key={id} htmlFor={id} className={`nb-vehicle${on ? ' on' : ''}`}>
                  <input id={id} type="radio" name="nb-vehicle" checked={on}
                    onChange={() => page.send({ type: 'vehicle.choose', vehicle_id: o.vehicle_id, company_id: o.company_id })} />
                  <span className="nb-vehicle-name">{o.vehicle_type}<span className="muted"> · {o.company_name}</span></span>
                  <span className="nb-vehicle-room muted">{o.max_seat} seats, {o.luggage} cases</span>
                  <span className="nb-vehicle-price">£{o.price}</span>
                </label>
              );
            })}
          </fieldset>
        )}
    </Step>
  );
}

interface PassengerValues { firstName: string; surname: string; number: string; email: string; additionalInfo: string }
const EMPTY: PassengerValues = { firstName: '', surname: '', number: '', email: '', additionalInfo: '' };

function Details({ page }: { page: Page }) {
  const chosen = useSelector(page, (s) => s.context.chosen);
  const booking = useSelector(page, (s) => s.matches({ trip: 'booking' }));
  const error = useSelector(page, (s) => s.context.error);
  const canBook = useSelector(page, (s) => s.can({ type: 'book', details: { registrationData: { ...EMPTY, passengerDetails: 'no', return_additionalInfo: '' }, passenger_id: null, payment: 'car', price: null } }));
  const [who, setWho] = useState<PassengerValues>(EMPTY);
  const [account, setAccount] = useState<FoundPassenger | null>(null);
  const [payment, setPayment] = useState<PhonePayment>('car');
  const [byHand, setByHand] = useState(false);
  const [price, setPrice] = useState<ManualPrice>({ amount: '', reason: '' });
  const [shown, setShown] = useState<Record<string, string>>({});
  // Issue 44: the passenger's company account, when the office may book on it, and its fields' values by field id.
  const [fieldValues, setFieldValues] = useState<Record<string, string>>({});
  const billing = account?.billing ?? null;
  const onAccount = payment === 'account' && billing !== null && officeAccountRefusal(billing) === null;
  const serverField = error?.field?.replace(/^booking\.registrationData\./, '').replace(/^registrationData\./, '') ?? '';
  const fieldError = (name: string) => shown[name] ?? (serverField === name ? error!.message : undefined);
  const choose = (p: FoundPassenger | null) => {
    setAccount(p);
    setFieldValues({});
    // On account is the chosen passenger's: another passenger, or none, starts again from paying in the car.
    if (payment === 'account') setPayment('car');
  };
  const use = (p: FoundPassenger) => {
    const [firstName, ...rest] = p.name.split(' ');
    setWho({ ...who, firstName, surname: rest.join(' '), number: p.phone ? formatPhone(p.phone) : '', email: p.email });
    choose(p.account_id ? p : null);
    setShown({});
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!account) Object.assign(problems, validateDetails('guest_login', { ...who, passengerDetails: 'no' }, isPhone));
    if (byHand) for (const [k, v] of Object.entries(manualPriceErrors(price))) problems[`price.${k}`] = v!;
    if (onAccount) for (const [id, v] of Object.entries(bookingFieldErrors(billing.fields, fieldValues, billing.name))) problems[`account_fields.${id}`] = v;
    setShown(problems);
    if (Object.keys(problems).length) return;
    const details: PhoneDetails = {
      registrationData: { ...who, passengerDetails: 'no', return_additionalInfo: '' }, passenger_id: account?.account_id ?? null, payment, price: byHand ? price : null,
      ...(onAccount ? { account_fields: Object.fromEntries(billing.fields.map((f) => [String(f.id), (fieldValues[String(f.id)] ?? '').trim()])) } : {}),
    };
    page.send({ type: 'book', details });
  };
  const otherError = error && chosen && !fieldError(serverField) && !error.field?.includes('Form.') ? error : null;
  return (
    <>
      <Step n={3} title="Passenger">
        <PassengerSearch page={page} onUse={use} />
        {account && (
          <p className="nb-account" role="status">
            Booking into {account.name}'s account ({account.email}).{' '}
            <button type="button" className="btn-link" onClick={() => choose(null)}>Book as new details instead</button>
          </p>
        )}
        <form id="nb-details" className="op-form nb-passenger" onSubmit={submit} noValidate aria-label="Passenger and payment">
          <div className="row">
            <Input id="firstName" label="First name" value={who.firstName} onChange={(v) => setWho({ ...who, firstName: v })} error={fieldError('firstName')} required={!account} />
            <Input id="surname" label="Surname" value={who.surname} onChange={(v) => setWho({ ...who, surname: v })} error={fieldError('surname')} required={!account} />
          </div>
          <div className="row">
            <Input id="number" label="Mobile" type="tel" value={who.number} onChange={(v) => setWho({ ...who, number: v })} error={fieldError('number')} required={!account}
              hint="Texts about the booking (and the payment link) go here." />
            <Input id="email" label="E-mail" type="email" value={who.email} onChange={(v) => setWho({ ...who, email: v })} error={fieldError('email')} required
              hint="The confirmation and the manage link go here." />
          </div>
          <Input id="additionalInfo" label="Notes for the driver" type="textarea" value={who.additionalInfo} onChange={(v) => setWho({ ...who, additionalInfo: v })} error={fieldError('additionalInfo')} />
        </form>
      </Step>
      <Step n={4} title="Price and payment">
        {chosen
          ? <p className="nb-price">The website's price: <strong>£{chosen.price}</strong> ({chosen.vehicle_type}, {chosen.company_name})</p>
          : <p className="muted">Get prices and choose a vehicle first.</p>}
        <div className="check">
          <input id="nb-by-hand" type="checkbox" form="nb-details" checked={byHand} onChange={(e) => setByHand(e.target.checked)} />
          <label htmlFor="nb-by-hand">Set the price by hand</label>
        </div>
        {byHand && (
          <div className="row">
            <Input id="price-amount" label="Price (£, per vehicle)" value={price.amount} onChange={(v) => setPrice({ ...price, amount: v })} error={fieldError('price.amount')} required />
            <Input id="price-reason" label="Reason" value={price.reason} onChange={(v) => setPrice({ ...price, reason: v })} error={fieldError('price.reason')} required
              hint="Kept with the booking and in the audit." />
          </div>
        )}
        <fieldset className="nb-payment">
          <legend>Payment</legend>
          {(['car', 'link'] as const).map((p) => (
            <div className="check" key={p}>
              <input id={`nb-pay-${p}`} type="radio" name="nb-payment" checked={payment === p} onChange={() => setPayment(p)} />
              <label htmlFor={`nb-pay-${p}`}>{PHONE_PAYMENT_LABELS[p]}{p === 'link' && <span className="muted"> (the passenger pays by card on the site; the booking is confirmed once paid)</span>}</label>
            </div>
          ))}
          {billing && <OnAccountChoice billing={billing} checked={payment === 'account'} onChoose={() => setPayment('account')} />}
          {fieldError('payment') && <p className="field-error" role="alert">{fieldError('payment')}</p>}
        </fieldset>
        {onAccount && billing.fields.length > 0 && (
          <div className="op-form nb-account-fields" role="group" aria-label={`${billing.name}'s booking fields`}>
            {billing.fields.map((f) => (
              <AccountFieldInput key={f.id} field={f} value={fieldValues[String(f.id)] ?? ''} error={fieldError(`account_fields.${f.id}`)}
                onChange={(v) => {
                  setFieldValues({ ...fieldValues, [String(f.id)]: v });
                  // What was said of the field goes once it is changed.
                  setShown(({ [`account_fields.${f.id}`]: _said, ...rest }) => rest);
                }} />
            ))}
          </div>
        )}
        {otherError && <p className="banner-error" role="alert">{otherError.message}</p>}
        <button type="submit" form="nb-details" className="btn btn-primary nb-take" disabled={!canBook || booking} aria-busy={booking || undefined}>
          {booking ? 'Taking the booking...' : 'Take booking'}
        </button>
      </Step>
    </>
  );
}

/** Issue 44: the passenger's company account as a way to pay, or why it cannot be used now (on hold, closed). */
function OnAccountChoice({ billing, checked, onChoose }: { billing: AccountBilling; checked: boolean; onChoose: () => void }) {
  const refusal = officeAccountRefusal(billing);
  return (
    <div className="check">
      <input id="nb-pay-account" type="radio" name="nb-payment" checked={checked && !refusal} disabled={refusal !== null} onChange={onChoose}
        aria-describedby={refusal ? 'nb-pay-account-why' : undefined} />
      <label htmlFor="nb-pay-account">{PHONE_PAYMENT_LABELS.account}: {billing.name}
        {!refusal && <span className="muted"> (invoiced with the month's journeys; no card is needed)</span>}</label>
      {refusal && <p className="field-hint" id="nb-pay-account-why">{refusal}</p>}
    </div>
  );
}

/** One of the account's booking fields (a PO number, a cost centre...): free text, or one of its list. */
function AccountFieldInput({ field, value, error, onChange }: { field: AccountField; value: string; error?: string; onChange: (v: string) => void }) {
  const id = `nb-account-field-${field.id}`;
  if (!field.options.length) return <Input id={id} label={field.label} value={value} onChange={onChange} error={error} required={field.required} />;
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}{field.required && <span className="required-mark" aria-hidden="true"> *</span>}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined} aria-required={field.required || undefined}>
        <option value="">{field.required ? 'Choose...' : 'None'}</option>
        {field.options.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

function PassengerSearch({ page, onUse }: { page: Page; onUse: (p: FoundPassenger) => void }) {
  const [q, setQ] = useState('');
  const found = useSelector(page, (s) => s.context.found);
  const searched = useSelector(page, (s) => s.context.searched);
  const searching = useSelector(page, (s) => s.matches({ search: 'searching' }));
  const error = useSelector(page, (s) => s.context.searchError);
  return (
    <div className="nb-search">
      <form className="nb-search-form" role="search" aria-label="Find a passenger" onSubmit={(e) => { e.preventDefault(); page.send({ type: 'passenger.find', q }); }}>
        <div className="field">
          <label htmlFor="nb-find">Find a passenger on record</label>
          <input id="nb-find" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, phone or e-mail"
            aria-invalid={error ? true : undefined} aria-describedby={error ? 'nb-find-error' : undefined} />
        </div>
        <button type="submit" className="btn" disabled={searching}>{searching ? 'Finding...' : 'Find'}</button>
      </form>
      {error && <p id="nb-find-error" className="field-error" role="alert">{error.message}</p>}
      <div aria-live="polite">
        {found && found.length === 0 && <p className="muted">Nobody on record matches "{searched}".</p>}
        {found && found.length > 0 && (
          <ul className="nb-found" aria-label="Passengers found">
            {found.map((p) => (
              <li key={p.email}>
                <span><strong>{p.name}</strong>{p.account_id ? <span className="nb-tag">Account</span> : null}<br />
                  <span className="muted">{p.email}{p.phone && ` · ${formatPhone(p.phone)}`}{p.last_booked && ` · booked ${p.last_booked}`}
                    {p.billing && ` · books for ${p.billing.name}`}</span></span>
                <button type="button" className="btn op-small" onClick={() => onUse(p)} aria-label={`Use ${p.name}, ${p.email}`}>Use</button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function Taken({ page }: { page: Page }) {
  const actor = useOperatorRef();
  const result = useSelector(page, (s) => s.context.result)!;
  const { booking, passengerDetails } = result.booking;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => { heading.current?.focus(); }, []);
  const [copied, setCopied] = useState(false);
  return (
    <section className="op-card nb-done" aria-labelledby="nb-done-title">
      <h2 id="nb-done-title" ref={heading} tabIndex={-1}>{result.link ? `Booking ${booking.booking_number} is waiting for payment` : `Booking ${booking.booking_number} is confirmed`}</h2>
      {result.replayed && <p className="muted">This booking had already been taken: here it is.</p>}
      <p>{booking.pick_up_address}{booking.drop_off_address ? ` to ${booking.drop_off_address}` : ''}, {recordDate(booking.pick_up_date)} {booking.pick_up_time}. £{booking.total_booking_amount}, {booking.fleet_category.category_name} ({booking.company_name}).</p>
      {result.link
        ? (
          <>
            <p>The card payment link has been sent to {result.link.sent_to}{passengerDetails.passenger_contact_no ? ` and by text to ${formatPhone(passengerDetails.passenger_contact_no)}` : ''}. It works until {new Date(result.link.expires_at).toLocaleString('en-GB', { timeZone: 'Europe/London', dateStyle: 'medium', timeStyle: 'short' })}. The confirmation follows once the passenger has paid.</p>
            <div className="field">
              <label htmlFor="nb-link">Payment link (to read out or send another way)</label>
              <div className="nb-link-row">
                <input id="nb-link" readOnly value={result.link.url} onFocus={(e) => e.target.select()} />
                <button type="button" className="btn" onClick={() => { void navigator.clipboard?.writeText(result.link!.url).then(() => setCopied(true), () => setCopied(false)); }}>Copy</button>
              </div>
              <p className="field-hint" aria-live="polite">{copied ? 'Copied.' : ''}</p>
            </div>
          </>
        )
        : <p>The confirmation, with the link to manage the booking, has been e-mailed to {passengerDetails.passenger_email}.
          {booking.payment_method === 'account' ? ' It is on the company account, invoiced with the month\'s journeys.' : ' The fare is paid in the car.'}</p>}
      <div className="op-row-buttons">
        <a className="btn btn-primary" href={pathWith('operatorBooking', { reference: booking.booking_number })} onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          actor.send({ type: 'open', reference: booking.booking_number });
        }}>Open booking {booking.booking_number}</a>
        <button type="button" className="btn" onClick={() => page.send({ type: 'again' })}>Take another booking</button>
      </div>
    </section>
  );
}

