// Issue 42: what a stored flight row says (src/server/flights/follow.ts stateOf), and when two answers say the same of
// a flight (sameFlight: the watcher writes, and tells, only a change).
import { describe, expect, it } from 'vitest';
import { sameFlight, stateOf } from '../../src/server/flights/follow';
import type { FlightState } from '../../src/domain/flights';

const row = {
  found: true, status: 'delayed' as const, origin: 'KJFK', scheduled_in: '2030-10-05 06:45:00+01', estimated_in: '2030-10-05T06:40:00Z',
  actual_in: null, terminal: '5',
};

describe("a stored flight's state", () => {
  it('is what the row says, its times as ISO instants', () => {
    expect(stateOf(row)).toEqual({
      status: 'delayed', origin: 'KJFK', scheduledIn: '2030-10-05T05:45:00.000Z', estimatedIn: '2030-10-05T06:40:00.000Z', actualIn: null, terminal: '5',
    });
  });

  it('is none until the flight was found with a status and its scheduled landing', () => {
    expect(stateOf({ ...row, found: false })).toBeNull();
    expect(stateOf({ ...row, found: null })).toBeNull();
    expect(stateOf({ ...row, status: null })).toBeNull();
    expect(stateOf({ ...row, scheduled_in: null })).toBeNull();
  });
});

describe('two answers about a flight', () => {
  const a = stateOf(row)!;
  it('are the same when every part is', () => {
    expect(sameFlight(a, { ...a })).toBe(true);
    expect(sameFlight(null, null)).toBe(true);
  });

  it('differ when any part does, or when only one has an answer', () => {
    const changes: Partial<FlightState>[] = [
      { status: 'landed' }, { origin: 'EGLL' }, { scheduledIn: '2030-10-05T05:50:00.000Z' }, { estimatedIn: null },
      { actualIn: '2030-10-05T06:41:00.000Z' }, { terminal: '3' },
    ];
    for (const change of changes) {
      expect(sameFlight(a, { ...a, ...change }), JSON.stringify(change)).toBe(false);
      expect(sameFlight({ ...a, ...change }, a), JSON.stringify(change)).toBe(false);
    }
    expect(sameFlight(a, null)).toBe(false);
    expect(sameFlight(null, a)).toBe(false);
  });
});
