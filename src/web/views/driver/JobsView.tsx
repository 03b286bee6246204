// A driver's jobs at /driver (issue 41 §2): today's, then those to come, each a large card (the day in words, the
// time, pickup -> drop-off, where it stands; CANCELLED plainly) that opens the job.
import { pickupClock } from '../../components/FlightNote';
import { pathWith } from '../../../domain/screens';
import type { DriverJob } from '../../../../machines/driver';
import { useDriver, useDriverRef } from './driverActor';
import { byDay, dayWords, destination, timeWords } from './format';

export function JobsView() {
  const actor = useDriverRef();
  const jobs = useDriver((s) => s.context.jobs);
  const loading = useDriver((s) => s.matches({ signedIn: { jobs: 'loading' } }));
  const failed = useDriver((s) => s.matches({ signedIn: { jobs: 'failed' } }));
  const canRefresh = useDriver((s) => s.can({ type: 'jobs.refresh' }));
  const canRetry = useDriver((s) => s.can({ type: 'jobs.retry' }));
  const notice = useDriver((s) => s.context.notice);
  const error = useDriver((s) => s.context.error?.message ?? null);
  const days = jobs ? byDay(jobs) : null;
  return (
    <section className="drv-page" aria-labelledby="drv-jobs-title">
      <div className="drv-head">
        <h1 id="drv-jobs-title" tabIndex={-1}>Your jobs</h1>
        {(canRefresh || loading) && (
          <button type="button" className="btn btn-secondary drv-refresh" disabled={loading} onClick={() => actor.send({ type: 'jobs.refresh' })}>
            {loading ? 'Loading...' : 'Refresh'}
          </button>
        )}
      </div>
      <div aria-live="polite">{notice && <p className="banner-ok drv-banner" role="status">{notice}</p>}</div>
      {failed ? (
        <div className="drv-card drv-failed">
          <p className="banner-error" role="alert">{error}</p>
          {canRetry && <button type="button" className="btn btn-primary drv-btn" onClick={() => actor.send({ type: 'jobs.retry' })}>Try again</button>}
        </div>
      ) : !days ? (
        <p className="drv-card drv-muted" aria-busy="true">Loading your jobs...</p>
      ) : (
        <>
          <JobList title="Today" jobs={days.today} empty="No jobs today." today />
          <JobList title="Upcoming" jobs={days.upcoming} empty="No jobs coming up yet. The office texts you when it gives you one." />
        </>
      )}
    </section>
  );
}

function JobList({ title, jobs, empty, today = false }: { title: string; jobs: DriverJob[]; empty: string; today?: boolean }) {
  const id = `drv-list-${title.toLowerCase()}`;
  return (
    <section className="drv-list" aria-labelledby={id}>
      <h2 id={id} className="drv-list-title">{title}</h2>
      {jobs.length === 0 ? <p className="drv-empty">{empty}</p> : (
        <ul className="drv-jobs">
          {jobs.map((job) => <li key={job.reference}><JobCard job={job} today={today} /></li>)}
        </ul>
      )}
    </section>
  );
}

/** A job in the list; under Today, its day only when it is not today (an earlier job still under way). */
function JobCard({ job, today }: { job: DriverJob; today: boolean }) {
  const actor = useDriverRef();
  const day = dayWords(job.pickup_date);
  const href = pathWith('driverJob', { reference: job.reference });
  return (
    <a
      href={href}
      className={`drv-job${job.cancelled ? ' drv-job-cancelled' : ''}`}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        actor.send({ type: 'job.open', reference: job.reference });
      }}
    >
      <span className="drv-job-when">
        <span className="drv-job-time">{job.flight_status ? pickupClock(job.flight_status) : timeWords(job.pickup_time)}</span>
        {!(today && day === 'Today') && <span className="drv-job-day">{day}</span>}
      </span>
      <span className="drv-job-route">
        <span className="drv-job-from">{job.pickup}</span>
        <span className="drv-job-arrow" aria-hidden="true">↓</span><span className="sr-only"> to </span>
        <span className="drv-job-to">{destination(job)}</span>
        {job.flight_status?.moved_words && <span className="drv-job-moved">{job.flight_status.moved_words}</span>}
      </span>
      <span className="drv-job-foot">
        <StatusPill job={job} />
        <span className="drv-job-ref">{job.reference}</span>
      </span>
    </a>
  );
}

/** Where a job stands, in the words of src/domain/driverJobs.ts, coloured by what it asks of the driver. */
export function StatusPill({ job }: { job: DriverJob }) {
  const tone = job.cancelled ? 'cancelled' : job.status === 'assigned' ? 'new' : job.finished ? 'done' : 'live';
  return <span className={`drv-pill drv-pill-${tone}`}>{job.cancelled ? 'CANCELLED' : job.status === 'assigned' ? 'New: accept or decline' : job.status_label}</span>;
}
