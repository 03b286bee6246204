// Where a request's time goes (issue 40): with STEP_TIMING=<file> set, each named step of the booking and of the mail
// sender, and each database statement, is timed, and the summary (count, total, mean, p50, p90, p99, max per step) is
// written to <file> when the server stops. `npm run bench:steps` (scripts/bench-steps.mjs) takes it under load. Unset,
// a step is a call and a check of one variable: nothing is measured or kept.
import { writeFileSync } from 'node:fs';

let samples: Map<string, number[]> | null = null;

/** Turns the timing on (config STEP_TIMING); the steps measured from now on are kept until `timingSummary`. */
export function startTiming(): void {
  samples = new Map();
}

/** Turns it off again, forgetting what was measured. */
export function stopTiming(): void {
  samples = null;
}

export const timingOn = (): boolean => samples !== null;

export function recordStep(name: string, ms: number): void {
  if (!samples) return;
  let list = samples.get(name);
  if (!list) samples.set(name, (list = []));
  list.push(ms);
}

/** Runs `work`, timing it as `name` when the timing is on (its wall time: waits for the database included). */
export async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!samples) return work();
  const began = performance.now();
  try {
    return await work();
  } finally {
    recordStep(name, performance.now() - began);
  }
}

/** `timed` for work that does not wait. */
export function timedSync<T>(name: string, work: () => T): T {
  if (!samples) return work();
  const began = performance.now();
  try {
    return work();
  } finally {
    recordStep(name, performance.now() - began);
  }
}

const labels = new Map<string, string>();
/** A statement's name in the summary: its first words, without parameters or spacing (`db INSERT INTO rate_limits`). */
export function statementLabel(sql: string): string {
  let label = labels.get(sql);
  if (label === undefined) {
    const words = sql.replace(/\s+/g, ' ').trim().split(' ');
    // A CTE is named by its parts (the booking's one statement: `WITH claim AS (...), passenger AS (...)`).
    const parts = words[0].toUpperCase() === 'WITH' ? [...sql.matchAll(/(\w+) AS \(/g)].map((m) => m[1]).slice(0, 4).join(',') : '';
    label = `db ${parts ? `WITH ${parts}` : words.slice(0, 4).join(' ')}`.slice(0, 70);
    if (labels.size < 1000) labels.set(sql, label);
  }
  return label;
}

export interface StepSummary { count: number; total_ms: number; mean_ms: number; p50_ms: number; p90_ms: number; p99_ms: number; max_ms: number }

const ms = (n: number) => Math.round(n * 1000) / 1000;

export function timingSummary(): Record<string, StepSummary> {
  const out: Record<string, StepSummary> = {};
  for (const [name, list] of [...(samples ?? new Map<string, number[]>())].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const total = sorted.reduce((n, v) => n + v, 0);
    out[name] = {
      count: sorted.length, total_ms: ms(total), mean_ms: ms(total / sorted.length), p50_ms: ms(at(0.5)), p90_ms: ms(at(0.9)),
      p99_ms: ms(at(0.99)), max_ms: ms(sorted[sorted.length - 1]),
    };
  }
  return out;
}

/** Writes the summary to `file` (at the server's stop). */
export function writeTiming(file: string): void {
  writeFileSync(file, `${JSON.stringify(timingSummary(), null, 2)}\n`);
}
