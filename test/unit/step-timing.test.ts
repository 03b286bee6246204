// Issue 40: STEP_TIMING (src/server/timing.ts) names each statement by its first words and sums each step's times.
import { describe, expect, it, onTestFinished } from 'vitest';
import { recordStep, startTiming, stopTiming, statementLabel, timed, timedSync, timingOn, timingSummary } from '../../src/server/timing';

describe('step timing', () => {
  it('names a statement by its first words, and the booking\'s one statement by its parts', () => {
    expect(statementLabel('  UPDATE outbound_emails\n   SET status = $1 WHERE id = $2')).toBe('db UPDATE outbound_emails SET status');
    expect(statementLabel('WITH counted AS (INSERT INTO rate_limits ...), claim AS (SELECT 1), passenger AS (SELECT 2), booking AS (x), keys AS (y) SELECT 1'))
      .toBe('db WITH counted,claim,passenger,booking');
  });

  it('measures nothing until it is started, then sums each step: count, total, mean and percentiles', async () => {
    expect(await timed('off', async () => 7)).toBe(7);
    expect(timedSync('off', () => 8)).toBe(8);
    expect(timingOn()).toBe(false);
    expect(timingSummary()).toEqual({});
    startTiming();
    onTestFinished(stopTiming);
    expect(timingOn()).toBe(true);
    for (const ms of [1, 2, 3, 4, 10]) recordStep('a step', ms);
    expect(await timed('async step', async () => 'done')).toBe('done');
    await expect(timed('failing step', async () => { throw new Error('no'); })).rejects.toThrow('no');
    expect(() => timedSync('sync step', () => { throw new Error('no'); })).toThrow('no');
    const summary = timingSummary();
    expect(summary['a step']).toEqual({ count: 5, total_ms: 20, mean_ms: 4, p50_ms: 3, p90_ms: 10, p99_ms: 10, max_ms: 10 });
    expect(Object.keys(summary)).toEqual(['a step', 'async step', 'failing step', 'sync step']);
    expect(summary['failing step'].count).toBe(1);
    stopTiming();
    expect([timingOn(), timingSummary()]).toEqual([false, {}]);
  });
});
