// One of a driver's jobs at /driver/jobs/{reference} (issue 41 §2): where it stands, one large button per step the
// server allows now (`job.steps`, src/domain/driverJobs.ts), those that cannot be undone confirmed first; then the
// journey, the passenger (a tap calls them), what to collect in the car, and the rest of what the booking asks.
import { FlightNote, pickupClock } from '../../components/FlightNote';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { telHref } from '../../components/SiteBar';
import { CONFIRMED_STEPS, STEP_LABELS, type JobStep } from '../../../domain/driverJobs';
import { pathOfScreen } from '../../../domain/screens';
import type { DriverJob, SharingState } from '../../../../machines/driver';
import { useDriver, useDriverRef } from './driverActor';
import { StatusPill } from './JobsView';
import { FoundItem } from './FoundItem';
import { clockAt, dateWords, dayWords, destination, phoneWords, timeWords } from './format';

export function JobView() {
  const actor = useDriverRef();
  const reference = useDriver((s) => s.context.reference);
  const job = useDriver((s) => s.context.job);
  const notFound = useDriver((s) => s.matches({ signedIn: { job: 'notFound' } }));
  const failed = useDriver((s) => s.matches({ signedIn: { job: 'failed' } }));
  const canRetry = useDriver((s) => s.can({ type: 'job.retry' }));
  const error = useDriver((s) => s.context.error?.message ?? null);
  if (notFound) {
    return (
      <section className="drv-page">
        <BackLink />
        <h1 tabIndex={-1}>Job not found</h1>
        <p className="drv-card">There is no job {reference} of yours. It may have been given to another driver: your jobs are all in the list.</p>
      </section>
    );
  }
  if (failed) {
    return (
      <section className="drv-page">
        <BackLink />
        <h1 tabIndex={-1}>Job {reference}</h1>
        <div className="drv-card drv-failed">
          <p className="banner-error" role="alert">{error}</p>
          {canRetry && <button type="button" className="btn btn-primary drv-btn" onClick={() => actor.send({ type: 'job.retry' })}>Try again</button>}
        </div>
      </section>
    );
  }
  if (!job) {
    return (
      <section className="drv-page" aria-busy="true">
        <BackLink />
        <h1 tabIndex={-1}>Job {reference}</h1>
        <p className="drv-card drv-muted">Loading the job...</p>
      </section>
    );
  }
  return <Job job={job} />;
}

function BackLink() {
  const [, navigate] = useLocation();
  const href = pathOfScreen('driverJobs');
  return (
    <p className="drv-back">
      <a href={href} onClick={(e) => { if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return; e.preventDefault(); navigate(href); }}>
        <span aria-hidden="true">←</span>All jobs
      </a>
    </p>
  );
}

function Job({ job }: { job: DriverJob }) {
  const actor = useDriverRef();
  const notice = useDriver((s) => s.context.notice);
  const error = useDriver((s) => s.context.error?.message ?? null);
  const loading = useDriver((s) => s.matches({ signedIn: { job: 'loading' } }));
  const canRefresh = useDriver((s) => s.can({ type: 'job.refresh' }));
  const day = dayWords(job.pickup_date);
  return (
    <article className="drv-page drv-job-page" aria-labelledby="drv-job-title">
      <BackLink />
      <h1 id="drv-job-title" tabIndex={-1}>Job {job.reference}</h1>
      <p className="drv-when">
        <span><strong>{day}</strong> at <strong>{job.flight_status ? pickupClock(job.flight_status) : timeWords(job.pickup_time)}</strong></span>
        {/^(Today|Tomorrow|Yesterday)$/.test(day) && <span className="drv-when-date">{dateWords(job.pickup_date)}</span>}
      </p>
      {job.flight_status && <FlightNote flight={job.flight_status} />}
      <div className="drv-status-row">
        <StatusPill job={job} />
        {(canRefresh || loading) && (
          <button type="button" className="btn btn-secondary drv-refresh" disabled={loading} onClick={() => actor.send({ type: 'job.refresh' })}>
            {loading ? 'Loading...' : 'Refresh'}
          </button>
        )}
      </div>
      {job.cancelled && <p className="drv-cancelled" role="alert"><strong>CANCELLED</strong> by the office. Do not go to the pickup.</p>}
      <Sharing />
      <div aria-live="polite">{notice && <p className="banner-ok drv-banner" role="status">{notice}</p>}</div>
      {error && <p className="banner-error drv-banner" role="alert">{error}</p>}
      <Steps job={job} />
      <FoundItem job={job} />
      <Section title="Journey">
        <ol className="drv-route">
          <li><span className="drv-route-label">Pickup</span>{job.pickup}</li>
          {job.stops.map((stop, i) => <li key={i}><span className="drv-route-label">Stop {i + 1}</span>{stop}</li>)}
          <li><span className="drv-route-label">{job.dropoff ? 'Drop-off' : 'Hourly'}</span>{destination(job)}</li>
        </ol>
        <Details rows={[['Flight', job.flight], ['Your car', job.car ?? null], ['Booked vehicle', job.vehicle]]} />
      </Section>
      <Section title="Passenger">
        <p className="drv-passenger">{job.passenger_name}</p>
        {job.passenger_phone && (
          <a className="btn btn-secondary drv-btn drv-call" href={telHref(job.passenger_phone)}>
            <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.6 10.8a15 15 0 006.6 6.6l2.2-2.2a1 1 0 011-.25 11.4 11.4 0 003.6.57 1 1 0 011 1V20a1 1 0 01-1 1A17 17 0 013 4a1 1 0 011-1h3.5a1 1 0 011 1c0 1.25.2 2.45.57 3.57a1 1 0 01-.25 1z" fill="currentColor" /></svg>
            Call {phoneWords(job.passenger_phone)}
          </a>
        )}
        {job.sign && <p className="drv-sign"><span className="drv-route-label">Meet and greet sign</span><strong>{job.sign}</strong></p>}
        <Details rows={[['Passengers', String(job.passengers)], ['Luggage', job.luggage], ['Extras', job.extras.join(', ') || null], ['Notes', job.notes.trim() || null]]} />
      </Section>
      <Section title="Payment">
        {job.cancelled ? <p className="drv-muted">Nothing to collect: the job is cancelled.</p>
          : job.collect !== null ? <p className="drv-collect"><span>Collect in the car</span><strong>{job.collect}</strong></p>
            : <p className="drv-muted">Nothing to collect in the car.</p>}
      </Section>
    </article>
  );
}

const SHARING_WORDS: Record<Exclude<SharingState, 'off'>, { text: string; alert: boolean }> = {
  starting: { text: 'Finding your position to share with the passenger...', alert: false },
  on: { text: 'Sharing your position with the passenger until they are on board.', alert: false },
  denied: { text: 'Location is blocked, so the passenger cannot follow the car. Allow location for this site in your browser settings.', alert: true },
  unavailable: { text: 'Your phone cannot give a position now: the passenger sees your status only.', alert: true },
};

/** Whether the car's position is being shared (on the way and at the pickup only). */
function Sharing() {
  const sharing = useDriver((s) => s.context.sharing);
  if (sharing === 'off') return null;
  const { text, alert } = SHARING_WORDS[sharing];
  return <p className={`drv-sharing${alert ? ' drv-sharing-off' : ''}`} role={alert ? 'alert' : 'status'}>{text}</p>;
}

const CONFIRM: Partial<Record<JobStep, { title: string; text: string; yes: string }>> = {
  declined: { title: 'Decline this job?', text: 'The office gives it to another driver, and it leaves your list. You cannot undo this.', yes: 'Yes, decline' },
  completed: { title: 'Complete this job?', text: 'Only once the passenger is at their destination. They are texted a receipt. You cannot undo this.', yes: 'Yes, completed' },
  no_show: { title: 'Mark as a no-show?', text: 'The passenger did not come. The office is told and the job ends. You cannot undo this.', yes: 'Yes, no-show' },
};

/** One large button per step the server allows now; a step that cannot be undone is confirmed in a window first. */
function Steps({ job }: { job: DriverJob }) {
  const actor = useDriverRef();
  const ready = useDriver((s) => s.matches({ signedIn: { job: 'ready' } }));
  const pending = useDriver((s) => s.context.step);
  const stepping = useDriver((s) => s.matches({ signedIn: { job: 'stepping' } }));
  const confirming = useDriver((s) => (s.matches({ signedIn: { job: 'confirming' } }) ? s.context.step : null));
  // The steps the server sent that the machine takes now (a string, so that an equal list is no new render).
  const offered = useDriver((s) => job.steps.filter((step) => s.can({ type: 'step.start', step })).join(' ')).split(' ').filter(Boolean) as JobStep[];
  const shown = ready ? offered : stepping || confirming ? job.steps : [];
  const waitFrom = job.status === 'arrived' && job.no_show_from && Date.parse(job.no_show_from) > Date.now() ? job.no_show_from : null;
  // When the free waiting ends the job is asked for again by itself, and the server's No-show button comes with it.
  useEffect(() => {
    if (!waitFrom) return undefined;
    const timer = setTimeout(() => actor.send({ type: 'job.refresh' }), Math.min(Date.parse(waitFrom) - Date.now() + 1_000, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [waitFrom, actor]);
  const ask = confirming ? CONFIRM[confirming] : undefined;
  if (!shown.length && !waitFrom) return null;
  return (
    <>
      {shown.length > 0 && (
        <div className="drv-steps" role="group" aria-label="Job steps">
          {shown.map((step) => (
            <button
              key={step} type="button" disabled={!ready}
              className={`btn drv-btn drv-step ${step === 'declined' || step === 'no_show' ? 'drv-step-stop' : 'btn-primary'}`}
              onClick={() => actor.send({ type: 'step.start', step })}
            >
              {stepping && pending === step ? 'Saving...' : STEP_LABELS[step]}
            </button>
          ))}
        </div>
      )}
      {waitFrom && (
        <p className="drv-wait">No-show can be tapped from <strong>{clockAt(waitFrom)}</strong>, when the passenger&apos;s free waiting time ends: the button shows here then.</p>
      )}
      {confirming && ask && CONFIRMED_STEPS.includes(confirming) && (
        <ConfirmDialog title={ask.title} onClose={() => actor.send({ type: 'step.cancel' })}>
          <p>{ask.text}</p>
          {confirming === 'completed' && job.collect !== null && <p><strong>Collect {job.collect} first.</strong></p>}
          <div className="dialog-buttons">
            <button type="button" className={`btn drv-btn ${confirming === 'completed' ? 'btn-primary' : 'drv-danger'}`} onClick={() => actor.send({ type: 'step.confirm' })}>{ask.yes}</button>
            <button type="button" className="btn btn-secondary drv-btn" onClick={() => actor.send({ type: 'step.cancel' })}>Go back</button>
          </div>
        </ConfirmDialog>
      )}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `drv-${title.toLowerCase()}`;
  return (
    <section className="drv-card drv-section" aria-labelledby={id}>
      <h2 id={id} className="drv-section-title">{title}</h2>
      {children}
    </section>
  );
}

/** Label and value, each row only when the booking has it. */
function Details({ rows }: { rows: [string, string | null][] }) {
  const shown = rows.filter((r): r is [string, string] => Boolean(r[1]));
  if (!shown.length) return null;
  return (
    <dl className="drv-details">
      {shown.map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
    </dl>
  );
}
