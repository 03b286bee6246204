// SPEC 2 '/quoteView': the Quote Now form, also where urgent bookings land.
import { useEffect, useRef, useState } from 'react';
import { Form } from 'react-final-form';
import type { FormApi } from 'final-form';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { create } from 'superstruct';
import { BookingActor, useSettings } from '../../bookingActor';
import { telHref } from '../../components/SiteBar';
import { graceText } from '../../../domain/settings';
import type { UrgentReason } from '../../../../machines/bookingContext';
import { Dialog } from '../../components/Dialog';
import { TextField } from '../../components/TextField';
import { Honeypot } from '../../components/Honeypot';
import { CountSelect, DateField } from '../../components/fields';
import { QuoteRequest, validateQuoteForm } from '../../../domain/contactSchemas';
import { toTime24, ukToday } from '../../../domain/ukTime';
import '../../screens.css';
import { StepHead } from '../../components/StepHead';

interface Values {
  pickup_address: string; dropoff_address: string; pickup_date: string; pickup_time: string;
  passenger_email: string; passenger_phone: string; passenger_name: string; additional_info: string;
  passengers: number; luggages: number;
  /** The honeypot (components/Honeypot): empty when a person sends the form. */
  website: string;
}

/**
 * Decision 22: after the urgent notice has come and gone, why the visitor is on this page, and what to do. It stays;
 * a visitor who opened the page themselves sees no such panel.
 */
function UrgentReasonPanel({ reason }: { reason: UrgentReason }) {
  const settings = useSettings();
  const phone = settings.Company_Contact_Info?.trim();
  const call = phone ? <>call us on <a href={telHref(phone)}>{phone}</a></> : 'call us';
  return (
    <section className="banner-info urgent-reason" aria-labelledby="urgent-reason-title">
      <h2 id="urgent-reason-title" className="urgent-reason-title">
        {reason === 'grace' ? 'Your pickup is too soon to book online' : 'We cannot take this address online'}
      </h2>
      {reason === 'grace' ? (
        <p>Pickups within {graceText(settings)} are booked by phone or with this form. For the quickest answer, {call}: we answer 24 hours a day. Or send your journey below and we will reply with a price.</p>
      ) : (
        <p>Bookings for this address are not taken online. Please {call}, or send your journey below and we will get back to you.</p>
      )}
    </section>
  );
}

export function QuoteView() {
  const actor = BookingActor.useActorRef();
  const form = BookingActor.useSelector((s) => s.context.bookingForm);
  const sending = BookingActor.useSelector((s) => s.matches({ quote: 'sending' }));
  const sent = BookingActor.useSelector((s) => s.matches({ quote: 'sent' }));
  const failed = BookingActor.useSelector((s) => s.matches({ quote: 'failed' }));
  const message = BookingActor.useSelector((s) => s.context.notice ?? s.context.error);
  const urgentReason = BookingActor.useSelector((s) => s.context.urgentReason);
  const formApi = useRef<FormApi<Values> | null>(null);
  // SPEC 4 'Quote send': once sent, e-mail, name, comments and telephone are cleared, luggage 0 and passengers 1.
  useEffect(() => {
    const api = formApi.current;
    if (!sent || !api) return;
    api.batch(() => {
      for (const f of ['passenger_email', 'passenger_name', 'additional_info', 'passenger_phone'] as const) api.change(f, '');
      api.change('luggages', 0);
      api.change('passengers', 1);
    });
    api.resetFieldState('passenger_email');
    api.resetFieldState('passenger_phone');
  }, [sent]);
  const [initial] = useState<Values>(() => ({
    pickup_address: form?.pickup ?? '', dropoff_address: form?.dropoff ?? '', pickup_date: form?.pickup_date ?? ukToday(),
    // SPEC 2: the time comes from the booking form, converted from 12-hour to 24-hour.
    pickup_time: form ? toTime24(form.pickup_hour, form.pickup_min) : '', passenger_email: '', passenger_phone: '',
    passenger_name: '', additional_info: '', passengers: Math.max(1, form?.passengers ?? 1), luggages: form?.luggages ?? 0, website: '',
  }));

  return (
    <div className="page narrow">
      <StepHead back="home" title="Quote Now" />
      {urgentReason && <UrgentReasonPanel reason={urgentReason} />}
      <p className="muted">Tell us about your journey and we will reply with a price, usually within the hour. For a pickup in the next few hours, please call us.</p>
      <Form<Values>
        initialValues={initial}
        validate={validateQuoteForm}
        onSubmit={(v) => {
          // The phone goes as E.164 (decision 20): QuoteRequest normalises it.
          actor.send({ type: 'quote.submit', request: create(v, QuoteRequest) });
        }}
        render={({ handleSubmit, form: api }) => {
          formApi.current = api;
          return (
          <form className="panel" onSubmit={handleSubmit} noValidate aria-label="Quote Now">
            <TextField name="pickup_address" label="Pickup address" />
            <TextField name="dropoff_address" label="Drop-off address" />
            <div className="row">
              <DateField name="pickup_date" label="Date" required min={ukToday()} />
              <TextField name="pickup_time" label="Time" required type="time" />
            </div>
            <div className="row">
              <TextField name="passenger_email" label="Email" required type="email" autoComplete="email" />
              <TextField name="passenger_phone" label="Telephone" required type="tel" autoComplete="tel" placeholder="07700 900123" />
            </div>
            <TextField name="passenger_name" label="Name" autoComplete="name" />
            <div className="row">
              <CountSelect name="passengers" label="Passengers" min={1} max={50} />
              <CountSelect name="luggages" label="Luggages" max={20} />
            </div>
            <TextField name="additional_info" label="Additional info" type="textarea" />
            <Honeypot />
            <button type="submit" className="btn btn-primary btn-block" disabled={sending}>{sending ? 'Sending...' : 'Send'}</button>
          </form>
          );
        }}
      />
      {sent && <Dialog title="Thank you" tone="info" onClose={() => actor.send({ type: 'error.dismissed' })}><p>{message}</p></Dialog>}
      {failed && <Dialog title="Error" onClose={() => actor.send({ type: 'error.dismissed' })}><p>{message}</p></Dialog>}
    </div>
  );
}
