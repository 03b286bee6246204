import { Form, Field } from 'react-final-form';
import { create } from 'superstruct';
import { BookingActor } from '../../bookingActor';
import { AddressInput } from '../../components/AddressInput';
import { Dialog } from '../../components/Dialog';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { BookingForm } from '../../../domain/schemas';
import { HOUR_OPTIONS, MINUTE_OPTIONS, newBookingForm, pickupDateError, range, type BookingFormDraft } from '../../../domain/forms';
import { ukToday } from '../../../domain/ukTime';
import { ServicesPanel } from './ServicesPanel';

type Errors = Partial<Record<keyof BookingFormDraft, string>>;

function validate(v: BookingFormDraft): Errors {
  const e: Errors = {};
  if (!v.pickup?.trim()) e.pickup = 'Enter a pickup address';
  if (!v.dropoff?.trim()) e.dropoff = 'Enter a drop-off address';
  const dateError = pickupDateError(v.pickup_date);
  if (dateError) e.pickup_date = dateError;
  return e;
}

function CountSelect({ name, label, max }: { name: keyof BookingFormDraft; label: string; max: number }) {
  return (
    <Field<number> name={name} parse={(v) => Number(v)}>
      {({ input }) => (
        <div className="field">
          <label htmlFor={name}>{label}</label>
          <select id={name} {...input} value={String(input.value)}>
            {range(0, max).map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
      )}
    </Field>
  );
}

export function HomeView() {
  const actor = BookingActor.useActorRef();
  const saved = BookingActor.useSelector((s) => s.context.bookingForm);
  const pricing = BookingActor.useSelector((s) => s.matches({ home: 'pricing' }));
  const failed = BookingActor.useSelector((s) => s.matches({ home: 'failed' }));
  const error = BookingActor.useSelector((s) => s.context.error);
  const initial: BookingFormDraft = saved ?? newBookingForm();

  return (
    <>
      <section className="hero">
        <div className="hero-inner">
          <div className="hero-copy">
            <h1>Airport transfers and chauffeur cars across the UK</h1>
            <p>Fixed prices from licensed operators, confirmed instantly. No surge pricing, free waiting at airports with Meet and Greet.</p>
            <ul className="hero-points">
              <li>Prices shown are the prices you pay</li>
              <li>Pay in the car or by card</li>
              <li>Flight tracking on airport pickups</li>
            </ul>
          </div>
          <div className="booking-card">
            <div className="tabs" role="tablist" aria-label="Booking type">
              <button type="button" role="tab" aria-selected="true" className="tab active">GET A QUOTE</button>
            </div>
            <Form<BookingFormDraft>
              initialValues={initial}
              validate={validate}
              onSubmit={(values) => {
                actor.send({ type: 'home.submit', bookingType: 'milleage', form: create(values, BookingForm) });
              }}
              render={({ handleSubmit }) => (
                <form className="quote-form" onSubmit={handleSubmit} noValidate aria-label="Get a quote">
                  <Field<string> name="pickup">
                    {({ input, meta }) => (
                      <AddressInput id="pickup" label="Pickup address" placeholder="Airport, station, postcode or address"
                        value={input.value} onChange={input.onChange} onBlur={() => input.onBlur()}
                        error={meta.touched ? meta.error : undefined} />
                    )}
                  </Field>
                  <Field<string> name="dropoff">
                    {({ input, meta }) => (
                      <AddressInput id="dropoff" label="Drop-off address" placeholder="Where are you going?"
                        value={input.value} onChange={input.onChange} onBlur={() => input.onBlur()}
                        error={meta.touched ? meta.error : undefined} />
                    )}
                  </Field>
                  <div className="row">
                    <Field<string> name="pickup_date">
                      {({ input, meta }) => (
                        <div className="field">
                          <label htmlFor="pickup_date">Pickup date</label>
                          <input id="pickup_date" type="date" min={ukToday()} {...input}
                            aria-invalid={meta.touched && meta.error ? true : undefined}
                            aria-describedby={meta.touched && meta.error ? 'pickup_date-error' : undefined} />
                          {meta.touched && meta.error && <p className="field-error" id="pickup_date-error">{meta.error}</p>}
                        </div>
                      )}
                    </Field>
                    <fieldset className="field time-field">
                      <legend>Pickup time</legend>
                      <div className="time-selects">
                        <Field<string> name="pickup_hour">
                          {({ input }) => (
                            <select aria-label="Pickup hour" {...input}>
                              {HOUR_OPTIONS.map((h) => <option key={h.value} value={h.value}>{h.label}</option>)}
                            </select>
                          )}
                        </Field>
                        <span aria-hidden="true">:</span>
                        <Field<string> name="pickup_min">
                          {({ input }) => (
                            <select aria-label="Pickup minute" {...input}>
                              {MINUTE_OPTIONS.map((m) => <option key={m} value={m}>{m}</option>)}
                            </select>
                          )}
                        </Field>
                      </div>
                    </fieldset>
                  </div>
                  <div className="row row-3">
                    <CountSelect name="passengers" label="Passengers" max={50} />
                    <CountSelect name="luggages" label="Luggage" max={20} />
                    <CountSelect name="hand_luggages" label="Hand luggage" max={20} />
                  </div>
                  <button type="submit" className="btn btn-primary btn-block" disabled={pricing}>Get prices</button>
                </form>
              )}
            />
          </div>
        </div>
      </section>
      <ServicesPanel />
      {pricing && (
        <LoadingOverlay text="Please wait while fetching prices">
          <ul className="legend">
            <li><span className="legend-swatch lowest" aria-hidden="true" />Lowest Price</li>
            <li><span className="legend-swatch multiple" aria-hidden="true" />Multiple Companies</li>
            <li><span className="legend-swatch cheapest" aria-hidden="true" />Cheapest Price of a Company</li>
          </ul>
        </LoadingOverlay>
      )}
      {failed && (
        <Dialog title="Error" onClose={() => actor.send({ type: 'error.dismissed' })}>
          <p>{error}</p>
        </Dialog>
      )}
    </>
  );
}
