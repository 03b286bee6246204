import { lazy, Suspense, useRef } from 'react';
import type { FormApi } from 'final-form';
import { availableBookingTypes } from '../../../../machines/booking';
import type { BookingFormDraft } from '../../../domain/forms';
import { BookingActor, useSettings } from '../../bookingActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { LoadFailure } from '../../components/LoadFailure';
import { StepNotice } from '../../components/StepNotice';
import { useAfterFirstPaint, usePreloaded } from '../../hooks';
import { DistanceForm } from './DistanceForm';
// The hourly form is a lazy chunk, fetched as soon as the operator offers it.
const loadHourlyForm = () => import('./HourlyForm');
// The Error dialog of a failed price call (an address the server refused is shown in the form instead).
const Dialog = lazy(() => import('../../components/Dialog').then((m) => ({ default: m.Dialog })));
// Below the fold: loaded after the form.
const HomeSections = lazy(() => import('./HomeSections').then((m) => ({ default: m.HomeSections })));

const TAB_LABELS = { milleage: 'GET A QUOTE', hourly: 'Hourly Rate' } as const;

export function HomeView() {
  const actor = BookingActor.useActorRef();
  const settings = useSettings();
  const bookingType = BookingActor.useSelector((s) => s.context.bookingType);
  const pricing = BookingActor.useSelector((s) => s.matches({ home: 'pricing' }));
  const failed = BookingActor.useSelector((s) => s.matches({ home: 'failed' }));
  const error = BookingActor.useSelector((s) => s.context.error);
  const tabs = availableBookingTypes(settings);
  const active = tabs.includes(bookingType) ? bookingType : tabs[0];
  const distanceForm = useRef<FormApi<BookingFormDraft> | null>(null);
  const offersHourly = tabs.includes('hourly');
  const HourlyForm = usePreloaded(loadHourlyForm, offersHourly)?.HourlyForm;
  // Below the fold: fetched and rendered after the first paint, which then waits for nothing but the form.
  const belowFold = useAfterFirstPaint();

  return (
    <>
      <section className="hero">
        <div className="hero-inner">
          <div className="hero-copy">
            <h1>Airport transfers and chauffeur cars across the UK</h1>
            <p>Fixed prices from licensed operators, confirmed instantly. No surge pricing, and your driver tracks your flight.</p>
            <ul className="hero-points">
              <li>Prices shown are the prices you pay</li>
              <li>Pay in the car or by card</li>
              <li>Meet and Greet at every UK airport</li>
            </ul>
          </div>
          <div className="booking-card" id="booking-form">
            <StepNotice />
            <div className="tabs" role="tablist" aria-label="Booking type">
              {tabs.map((t) => (
                <button key={t} type="button" role="tab" id={`tab-${t}`} aria-selected={t === active} aria-controls="booking-panel"
                  className={`tab ${t === active ? 'active' : ''}`} onClick={() => actor.send({ type: 'home.typeChanged', bookingType: t })}>
                  {TAB_LABELS[t]}
                </button>
              ))}
            </div>
            <div role="tabpanel" id="booking-panel" aria-labelledby={`tab-${active}`}>
              {active === 'milleage'
                ? <DistanceForm pricing={pricing} formRef={(f) => { distanceForm.current = f; }} />
                : HourlyForm ? <HourlyForm pricing={pricing} /> : <p className="form-loading" role="status">Loading the hourly form…</p>}
            </div>
          </div>
        </div>
      </section>
      {belowFold && <LoadFailure quiet><Suspense fallback={null}>
        <HomeSections onChooseDestination={(address) => {
          if (active !== 'milleage') actor.send({ type: 'home.typeChanged', bookingType: 'milleage' });
          setTimeout(() => {
            distanceForm.current?.change('dropoff', address);
            document.getElementById('booking-form')?.scrollIntoView({ behavior: 'smooth' });
          }, 0);
        }} />
      </Suspense></LoadFailure>}
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
        <Suspense fallback={null}>
          <Dialog title="Error" onClose={() => actor.send({ type: 'error.dismissed' })}>
            <p>{error}</p>
          </Dialog>
        </Suspense>
      )}
    </>
  );
}
