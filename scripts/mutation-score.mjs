// The mutation score as the repository records it (bench/results/mutation.json) and the check that keeps it true
// (issue 28): every file Stryker mutates carries the hash of the content its score was measured on, so a change to
// one of them fails CI until `npm run test:mutation` measures it again (incrementally, in minutes).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Stryker's runs, each with its own incremental file and report so one can be measured again without the others:
 * the shared rules, and the machines, with the unit and machine tests (stryker.config.json), and the
 * server's rules in groups, each with the API tests written for them (stryker.server.config.json).
 */
export const MUTATION_RUNS = [
  { name: 'rules', config: 'stryker.config.json', mutate: ['src/domain/**/*.ts'] },
  // The machines, a group each (with the machines they share), static mutants included: a static mutant (the machine's
  // definition, built once when the module loads) runs every test of its group, so each group names the model tests
  // that drive its machines, and the unit tests that kill their other mutants (issue 28).
  ...[
    { name: 'machines-booking', machines: ['booking', 'bookingActions', 'bookingContext', 'bookingGuards', 'bookingLocation', 'bookingSteps'],
      tests: ['test/machine/booking.model.test.ts', 'test/machine/app.model.test.ts', 'test/unit/booking-context.test.ts', 'test/unit/landing-step.test.ts', 'test/unit/screens.test.ts'] },
    // The services the wizard calls, as placeholders the app replaces: what they say when it does not.
    { name: 'machines-actors', machines: ['bookingActors'], tests: ['test/machine/booking.model.test.ts'] },
    { name: 'machines-card', machines: ['cardPayment', 'cardTypes'],
      tests: ['test/machine/cardPayment.model.test.ts', 'test/machine/booking.model.test.ts', 'test/machine/manage.model.test.ts'] },
    { name: 'machines-account', machines: ['account', 'accountLocation', 'accountSetup'],
      tests: ['test/machine/account.model.test.ts', 'test/machine/app.model.test.ts', 'test/unit/screens.test.ts'] },
    // The corporate area's Journeys and Invoices pages (issue 44), the account's children, and what they share.
    { name: 'machines-corporate', machines: ['accountJourneys', 'accountInvoices', 'accountPage'],
      tests: ['test/machine/accountJourneys.model.test.ts', 'test/machine/accountInvoices.model.test.ts'] },
    { name: 'machines-operator', machines: ['operator', 'operatorSetup', 'operatorPages'], tests: ['test/machine/operator.model.test.ts'] },
    // The console's pages run as its child machines (issue 43: records, New booking, privacy, complaints and lost
    // property), a group of their own: their model tests take a second, the console's half a minute.
    { name: 'machines-pages', machines: ['consolePage', 'operatorRecords', 'phoneBooking', 'operatorPrivacy', 'operatorCasework'],
      tests: ['test/machine/records.model.test.ts', 'test/machine/phoneBooking.model.test.ts', 'test/machine/privacy.model.test.ts',
        'test/machine/casework.model.test.ts'] },
    // The console's Accounts and Invoices pages (issue 44).
    { name: 'machines-accounts', machines: ['operatorAccounts', 'operatorInvoices'],
      tests: ['test/machine/accounts.model.test.ts', 'test/machine/invoices.model.test.ts'] },
    // A passenger's booking and a card payment link's page (issue 43).
    { name: 'machines-manage', machines: ['manage', 'manageSetup', 'payLink'], tests: ['test/machine/manage.model.test.ts', 'test/machine/payLink.model.test.ts'] },
    { name: 'machines-app', machines: ['app', 'shared'], tests: ['test/machine/app.model.test.ts', 'test/unit/screens.test.ts'] },
    { name: 'machines-contact', machines: ['contact'], tests: ['test/machine/contact.model.test.ts'] },
    { name: 'machines-forgot', machines: ['forgotPassword'], tests: ['test/machine/forgotPassword.model.test.ts', 'test/machine/booking.model.test.ts'] },
    // The driver's page (issue 41): sign-in, jobs, steps and sharing the car's position.
    { name: 'machines-driver', machines: ['driver', 'driverFoundItem'], tests: ['test/machine/driver.model.test.ts', 'test/machine/driverFoundItem.model.test.ts'] },
    // A mutant that loops a machine's eventless transitions fails at once (the model tests bound the microsteps); one
    // that loops otherwise is stopped after 8 s more than its tests' time (20 s elsewhere).
  ].map(({ machines, ...run }) => ({
    config: 'stryker.config.json', ignoreStatic: false, timeoutMS: 8000, ...run, mutate: machines.map((m) => `machines/${m}.ts`),
  })),
  // The server's rules, a group each with the API tests written for them, static mutants included (what a module
  // holds from when it loads, as the allowances' messages and numbers): each runs every test of its group.
  ...[
    {
      name: 'server-pricing',
      mutate: ['src/server/pricing/engine.ts', 'src/server/pricing/quote.ts', 'src/server/pricing/rules.ts'],
      tests: ['test/api/pricing.test.ts', 'test/api/pricing-rules.test.ts', 'test/api/one-price.test.ts', 'test/api/booking.test.ts', 'test/api/addresses.test.ts'],
    },
    {
      name: 'server-auth',
      mutate: ['src/server/limits.ts', 'src/server/auth/throttle.ts', 'src/server/auth/tokens.ts', 'src/server/auth/passwordReset.ts', 'src/server/auth/passwords.ts'],
      tests: ['test/api/sign-in-limits.test.ts', 'test/api/account-safety.test.ts', 'test/api/account.test.ts', 'test/api/password-reset.test.ts',
        'test/api/mail-abuse.test.ts', 'test/api/card-abuse.test.ts', 'test/api/registration-modes.test.ts', 'test/api/spent-allowances.test.ts'],
    },
    {
      name: 'server-mail',
      mutate: ['src/server/mail/queue.ts'],
      // sms.test: the texts in the same queue (issue 41).
      tests: ['test/api/mail.test.ts', 'test/api/mail-abuse.test.ts', 'test/api/office-notices.test.ts', 'test/api/booking-statements.test.ts',
        'test/api/sms.test.ts'],
    },
    {
      name: 'server-payments',
      mutate: ['src/server/payments/ledger.ts', 'src/server/bookings/cardBookings.ts', 'src/server/bookings/unpaidBookings.ts', 'src/server/cardEvents/cardEvents.ts',
        'src/server/bookings/paymentLinks.ts'],
      tests: ['test/api/card-payments.test.ts', 'test/api/card-abuse.test.ts', 'test/api/manage-changes.test.ts', 'test/api/operator-desk.test.ts',
        'test/api/card-rules.test.ts', 'test/api/who-moves-money.test.ts', 'test/api/refund-tries.test.ts', 'test/api/phone-bookings.test.ts'],
    },
    {
      name: 'server-bookings',
      mutate: ['src/server/bookings/bookings.ts', 'src/server/bookings/bookingNumber.ts'],
      tests: ['test/api/booking.test.ts', 'test/api/booking-statements.test.ts', 'test/api/office-notices.test.ts', 'test/api/registration-modes.test.ts',
        'test/api/phones.test.ts', 'test/api/one-price.test.ts', 'test/api/hostile-text.test.ts', 'test/api/booking-rules.test.ts',
        'test/api/spent-allowances.test.ts', 'test/api/phone-bookings.test.ts', 'test/api/accounts.test.ts'],
    },
    // Bookings made at the same moment written in one statement (issue 40, decision 65): the writer. (The statements'
    // text, queries.ts, is checked by the API tests, not mutated.)
    {
      name: 'server-batch',
      mutate: ['src/server/bookings/bookingBatch.ts'],
      tests: ['test/api/booking-batch.test.ts', 'test/api/booking-statements.test.ts'],
    },
    // Corporate accounts on a monthly invoice (issue 44): paying on account within the limit, the invoice run, the
    // booker's journeys.
    {
      name: 'server-accounts',
      mutate: ['src/server/accounts/billing.ts', 'src/server/accounts/invoiceRun.ts', 'src/server/accounts/store.ts', 'src/server/accounts/journeys.ts'],
      tests: ['test/api/accounts.test.ts', 'test/api/account-records.test.ts', 'test/api/account-desk.test.ts', 'test/api/accounts-two-processes.test.ts'],
    },
    // The driver's side (issue 41): the driver's sign-in, jobs and steps, the car's position, and the passenger's live
    // view of the job.
    {
      name: 'server-driver',
      mutate: ['src/server/driver/jobs.ts', 'src/server/driver/positions.ts', 'src/server/driver/signIn.ts', 'src/server/driver/routes.ts',
        'src/server/live/hub.ts', 'src/server/live/liveJob.ts', 'src/server/live/sse.ts'],
      tests: ['test/api/driver.test.ts', 'test/api/driver-session.test.ts', 'test/api/tracking.test.ts', 'test/api/casework.test.ts'],
    },
    // Airport pickups that follow the flight (issue 42): the flight's rule on a booking, the watcher, the links.
    {
      name: 'server-flights',
      mutate: ['src/server/flights/bookingFlight.ts', 'src/server/flights/check.ts', 'src/server/flights/follow.ts', 'src/server/flights/links.ts',
        'src/server/flights/watcher.ts'],
      tests: ['test/api/flights.test.ts', 'test/api/flight-watcher.test.ts', 'test/api/flights-two-processes.test.ts'],
    },
  ].map((run) => ({ config: 'stryker.server.config.json', ignoreStatic: false, ...run })),
].map((run) => ({
  ...run,
  report: `reports/mutation/${run.name}.json`,
  incrementalFile: `bench/results/stryker/${run.name}.json`,
}));

export const THRESHOLDS = { total: 90, file: 80 };

/**
 * What the groups measure. The floor (the best total recorded) compares totals over the same mutants: when this
 * changes (the machines' static mutants were added in issue 28), the floor starts again from the first total recorded
 * with every group measured under it.
 */
export const SCOPE = 'src/domain; machines and the server groups, static mutants included';

/** Whether a run mutates what runs once as its module loads (a machine's definition): only when its group says so. */
export const measuresStatic = (run) => run.ignoreStatic === false;

/** Expands a `mutate` entry: a file, or `dir/**\/*.ext`. */
function expand(root, pattern) {
  const wild = /^(.*)\/\*\*\/\*(\.[a-z]+)$/.exec(pattern);
  if (!wild) return [pattern];
  const [, dir, ext] = wild;
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}

/** The files one run mutates. */
export function mutatedBy(root, run) {
  return run.mutate.filter((p) => !p.startsWith('!')).flatMap((p) => expand(root, p));
}

/** Every file the Stryker configurations mutate, sorted. */
export function mutatedFiles(root) {
  const files = MUTATION_RUNS.flatMap((run) => mutatedBy(root, run));
  return [...new Set(files)].sort();
}

export const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** Killed, timed out, survived and uncovered mutants, and the score over them (ignored and unbuildable ones aside). */
export function counts(mutants) {
  const c = { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  for (const m of mutants) {
    if (m.status === 'Killed') c.killed++;
    else if (m.status === 'Timeout') c.timeout++;
    else if (m.status === 'Survived') c.survived++;
    else if (m.status === 'NoCoverage') c.noCoverage++;
  }
  const detected = c.killed + c.timeout;
  const valid = detected + c.survived + c.noCoverage;
  return { ...c, score: valid ? Number(((detected / valid) * 100).toFixed(2)) : null };
}

/**
 * What is wrong with a recorded score against the files as they are now (`current`: path -> sha256 of its content).
 * The total must be at its threshold, or, until a recording first reaches it, at no less than the best total recorded
 * (`floor`, kept by scripts/mutation-run.mjs): it can only go up. Files under their threshold are `below`, listed.
 * @returns {{ problems: string[], below: string[] }} problems fail the check; none when the record is fresh and holds
 */
export function checkRecord(record, current, thresholds = THRESHOLDS, runs = MUTATION_RUNS) {
  const problems = [];
  for (const run of runs) {
    const measured = record.runs?.[run.name];
    if (measured && measured.staticMutants !== measuresStatic(run)) {
      problems.push(`run ${run.name} was measured ${measured.staticMutants ? 'with' : 'without'} its static mutants; its group now ${measuresStatic(run) ? 'includes' : 'ignores'} them`);
    }
  }
  const recorded = record.files ?? {};
  for (const [file, hash] of Object.entries(current)) {
    const entry = recorded[file];
    if (!entry) problems.push(`${file} is mutated but has no recorded score`);
    else if (entry.sha256 !== hash) problems.push(`${file} changed since its score was recorded (in run ${entry.run ?? '?'} at ${record.runs?.[entry.run]?.commit?.slice(0, 12) ?? 'an unknown commit'})`);
  }
  for (const file of Object.keys(recorded)) {
    if (!(file in current)) problems.push(`${file} has a recorded score but is no longer mutated`);
  }
  const total = record.total?.score;
  const required = Math.min(thresholds.total, record.floor ?? thresholds.total);
  if (typeof total !== 'number') problems.push('the total score is missing');
  else if (total < required) problems.push(`the total score ${total}% is below ${required}%${required < thresholds.total ? ' (the best recorded so far)' : ''}`);
  const below = Object.entries(recorded)
    .filter(([, entry]) => entry.score !== null && entry.score < thresholds.file)
    .map(([file, entry]) => `${file} scores ${entry.score}%, below ${thresholds.file}%`);
  if ((record.floor ?? thresholds.total) >= thresholds.total) problems.push(...below);
  return { problems, below };
}
