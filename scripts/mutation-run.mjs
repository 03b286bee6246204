#!/usr/bin/env node
// `npm run test:mutation [-- <group>... | --stale] [--record-only] [--fresh] [--forget=<file>]`: Stryker's groups (MUTATION_RUNS in
// mutation-score.mjs), each incremental from its file in bench/results/stryker/, then the score of each file written to
// bench/results/mutation.json with the hash of the content it was measured on. Each incremental file is then trimmed
// to what the next run reads of it (--trim: only that, for every group). With no argument every group; with
// --stale only the groups with a file changed since its score was recorded (what `npm run test:mutation:check` and
// CI refuse); with --record-only the record is written from the reports of the last runs, without running Stryker;
// with --fresh every mutant of the groups named is run again: an incremental run reuses a survivor or an uncovered
// mutant of an unchanged file as it was, even after new tests would kill it (seen in issue 44); --forget=<file> does
// so for one file's mutants only.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';
import { MUTATION_RUNS, SCOPE, THRESHOLDS, counts, measuresStatic, mutatedBy, sha256 } from './mutation-score.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RECORD = path.join(root, 'bench/results/mutation.json');
const read = (file) => readFileSync(path.join(root, file), 'utf8');

const record = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, 'utf8')) : {};
const args = process.argv.slice(2);
const isStale = (run) => record.runs?.[run.name]?.staticMutants !== measuresStatic(run)
  || mutatedBy(root, run).some((f) => record.files?.[f]?.sha256 !== sha256(read(f)));
// --record-only: the record written again from the groups' reports in reports/mutation/, Stryker not run.
const recordOnly = args.includes('--record-only');
const trimOnly = args.includes('--trim');
const fresh = args.includes('--fresh');
// --forget=<file>: that file's mutants run again, the group's others reused (what --fresh does for a whole group).
const forgotten = args.filter((a) => a.startsWith('--forget=')).map((a) => a.slice('--forget='.length));
const names = args.filter((a) => !a.startsWith('--'));
const runs = args.includes('--stale') ? MUTATION_RUNS.filter(isStale)
  : names.length ? MUTATION_RUNS.filter((r) => names.includes(r.name)) : MUTATION_RUNS;
if (names.length && !args.includes('--stale') && runs.length !== names.length) {
  console.error(`Unknown run name. The runs: ${MUTATION_RUNS.map((r) => r.name).join(', ')}`);
  process.exit(2);
}

const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const valid = (mutants) => mutants.filter((m) => !['Ignored', 'CompileError'].includes(m.status));

/** This run's files in the record, from its report: each file's counts and the hash of the source Stryker mutated. */
function recordRun(run) {
  const report = JSON.parse(read(run.report));
  // Kept: the other groups' files that are still there (an entry of no known group is of an older record's format).
  const groups = new Set(MUTATION_RUNS.map((r) => r.name));
  const files = Object.fromEntries(Object.entries(record.files ?? {})
    .filter(([file, entry]) => entry.run !== run.name && groups.has(entry.run) && existsSync(path.join(root, file))));
  for (const file of mutatedBy(root, run)) {
    const measured = report.files[file];
    files[file] = {
      run: run.name,
      ...counts(valid(measured?.mutants ?? [])),
      sha256: sha256(measured?.source ?? read(file)),
    };
  }
  record.files = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
  record.runs = {
    // Only the groups there are now (a group renamed or split leaves its old entry behind otherwise).
    ...Object.fromEntries(Object.entries(record.runs ?? {}).filter(([name]) => groups.has(name))),
    [run.name]: {
      // Written again from the last report (--record-only): the run's own date and commit stay.
      date: (recordOnly && record.runs?.[run.name]?.date) || new Date().toISOString().slice(0, 10),
      commit: (recordOnly && record.runs?.[run.name]?.commit) || commit,
      config: run.config,
      tests: run.tests ?? 'the unit and machine tests (vitest.mutation.config.ts)',
      staticMutants: measuresStatic(run),
      total: counts(mutatedBy(root, run).flatMap((f) => valid(report.files[f]?.mutants ?? []))),
    },
  };
  const sum = { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  for (const entry of Object.values(record.files)) for (const k of Object.keys(sum)) sum[k] += entry[k];
  const detected = sum.killed + sum.timeout;
  record.total = { ...sum, score: Number(((detected / (detected + sum.survived + sum.noCoverage)) * 100).toFixed(2)) };
  const { total, runs: byRun, files: byFile } = record;
  // The best total recorded once every group has a score: a later one below it fails the check (checkRecord). Over
  // other mutants (another SCOPE) it starts again.
  if (MUTATION_RUNS.every((r) => r.name in byRun)) {
    record.floor = record.scope === SCOPE ? Math.max(record.floor ?? 0, total.score) : total.score;
    record.scope = SCOPE;
  }
  writeFileSync(RECORD, `${JSON.stringify({
    tool: 'StrykerJS 9 (vitest runner), npm run test:mutation (scripts/mutation-run.mjs)',
    thresholds: THRESHOLDS,
    ...(record.floor === undefined ? {} : { floor: record.floor, scope: record.scope }),
    total,
    runs: byRun,
    files: byFile,
  }, null, 2)}\n`);
}

/**
 * A group's incremental file, trimmed to what Stryker's next incremental run reads of it: the files this group
 * mutates (their source and mutants) and the tests those mutants name (with their files' source, to see whether a
 * test changed). Stryker writes every file and test its run saw; the rest is never read back, and made each file
 * megabytes in git.
 */
function trimIncremental(run) {
  const file = path.join(root, run.incrementalFile);
  if (!existsSync(file)) return;
  const before = readFileSync(file, 'utf8');
  const report = JSON.parse(before);
  const mutated = new Set(mutatedBy(root, run));
  const files = Object.fromEntries(Object.entries(report.files ?? {}).filter(([name]) => mutated.has(name)));
  const named = new Set(Object.values(files).flatMap((f) => f.mutants.flatMap((m) => [...(m.coveredBy ?? []), ...(m.killedBy ?? [])])));
  const testFiles = Object.fromEntries(Object.entries(report.testFiles ?? {})
    .map(([name, t]) => [name, { ...t, tests: t.tests.filter((test) => named.has(test.id)) }])
    .filter(([, t]) => t.tests.length));
  const after = JSON.stringify({ ...report, files, testFiles });
  if (after !== before) writeFileSync(file, after);
}

if (trimOnly) {
  for (const run of MUTATION_RUNS) trimIncremental(run);
  process.exit(0);
}

/** Drops `files`' results from a group's incremental file, so its next run measures them afresh. */
function forget(run, files) {
  const file = path.join(root, run.incrementalFile);
  if (!files.length || !existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const kept = Object.fromEntries(Object.entries(report.files ?? {}).filter(([name]) => !files.includes(name)));
  writeFileSync(file, JSON.stringify({ ...report, files: kept }));
}

for (const run of runs) {
  forget(run, forgotten.filter((f) => mutatedBy(root, run).includes(f)));
  if (recordOnly) {
    recordRun(run);
    continue;
  }
  console.log(`\n== Stryker: ${run.name} ==`);
  process.env.MUTATION_TEST_FILES = (run.tests ?? []).join(',');
  await new Stryker({
    configFile: run.config,
    mutate: run.mutate,
    ...(run.ignoreStatic === undefined ? {} : { ignoreStatic: run.ignoreStatic }),
    ...(run.timeoutMS === undefined ? {} : { timeoutMS: run.timeoutMS }),
    incremental: true,
    force: fresh,
    incrementalFile: run.incrementalFile,
    jsonReporter: { fileName: run.report },
  }).runMutationTest();
  recordRun(run);
  trimIncremental(run);
  console.log(`${run.name}: ${record.runs[run.name].total.score}%; all runs ${record.total.score}% (bench/results/mutation.json)`);
}
/** docs/mutation.md's score table, between its markers, from the record. */
function writeScoreTable() {
  const doc = path.join(root, 'docs/mutation.md');
  const text = readFileSync(doc, 'utf8');
  const row = (name, group, c) => `| ${name} | ${group} | ${c.score ?? '-'}% | ${c.killed + c.timeout} | ${c.survived} | ${c.noCoverage} |`;
  const table = [
    '| file | run | score | killed | survived | no coverage |', '|---|---|---|---|---|---|',
    row('**all**', '', record.total),
    ...Object.entries(record.files).map(([file, c]) => row(file, c.run, c)),
  ].join('\n');
  writeFileSync(doc, text.replace(/<!-- score:start -->[\s\S]*?<!-- score:end -->/, `<!-- score:start -->\n${table}\n<!-- score:end -->`));
}

if (!runs.length) console.log('Every mutated file is as its score was recorded: nothing to run.');
else {
  writeScoreTable();
  execFileSync(process.execPath, [path.join(root, 'scripts/mutation-kills.mjs')], { cwd: root, stdio: 'inherit' });
}
