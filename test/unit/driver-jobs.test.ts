// Issue 41 §2: the one rule of a driver's steps (src/domain/driverJobs.ts): which follows which, No-show only after
// the free waiting since Arrived, nothing on a booking no longer confirmed, and the words of each refusal.
import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_STEPS, JOB_STATUSES, JOB_STATUS_LABELS, JOB_STEPS, STEP_LABELS, isJobStatus, isJobStep, nextSteps, noShowFrom, stepRefusal,
  type JobState,
} from '../../src/domain/driverJobs';

const NOW = new Date('2030-10-03T06:30:00Z');
const job = (over: Partial<JobState> = {}): JobState => ({ bookingStatus: 'confirmed', jobStatus: 'assigned', arrivedAt: null, freeWaitingMinutes: 15, ...over });

describe("a driver's steps", () => {
  it('follow each other in one order', () => {
    expect(nextSteps(job(), NOW)).toEqual(['accepted', 'declined']);
    expect(nextSteps(job({ jobStatus: 'accepted' }), NOW)).toEqual(['on_way']);
    expect(nextSteps(job({ jobStatus: 'on_way' }), NOW)).toEqual(['arrived']);
    expect(nextSteps(job({ jobStatus: 'on_board' }), NOW)).toEqual(['completed']);
    for (const done of ['declined', 'completed', 'no_show'] as const) expect(nextSteps(job({ jobStatus: done }), NOW)).toEqual([]);
  });

  it('take none on a booking that is no longer confirmed', () => {
    for (const bookingStatus of ['cancelled', 'completed', 'no_show', 'pending', 'expired']) {
      expect(nextSteps(job({ bookingStatus, jobStatus: 'accepted' }), NOW)).toEqual([]);
    }
  });

  it('offer No-show once the free waiting since Arrived has passed, to the minute', () => {
    const arrivedAt = '2030-10-03T06:15:00.000Z';
    expect(noShowFrom({ arrivedAt, freeWaitingMinutes: 15 })).toEqual(new Date('2030-10-03T06:30:00Z'));
    expect(noShowFrom({ arrivedAt: null, freeWaitingMinutes: 15 })).toBeNull();
    expect(nextSteps(job({ jobStatus: 'arrived', arrivedAt }), new Date('2030-10-03T06:29:59Z'))).toEqual(['on_board']);
    expect(nextSteps(job({ jobStatus: 'arrived', arrivedAt }), NOW)).toEqual(['on_board', 'no_show']);
    expect(nextSteps(job({ jobStatus: 'arrived', arrivedAt, freeWaitingMinutes: 0 }), new Date('2030-10-03T06:15:00Z'))).toEqual(['on_board', 'no_show']);
    // Arrived with no time recorded: never a No-show.
    expect(nextSteps(job({ jobStatus: 'arrived', arrivedAt: null }), NOW)).toEqual(['on_board']);
  });
});

describe('a refused step', () => {
  it('is none when the step is allowed', () => {
    expect(stepRefusal(job(), 'accepted', NOW)).toBeNull();
  });

  it('says the office cancelled the job, or that it is finished', () => {
    expect(stepRefusal(job({ bookingStatus: 'cancelled', jobStatus: 'accepted' }), 'on_way', NOW)).toBe('This job was cancelled by the office.');
    expect(stepRefusal(job({ bookingStatus: 'completed', jobStatus: 'completed' }), 'completed', NOW)).toBe('This job is finished: nothing more can be done to it.');
  });

  it('says when a No-show may be tapped, in whole minutes, never 0', () => {
    const arrivedAt = '2030-10-03T06:20:00.000Z';
    expect(stepRefusal(job({ jobStatus: 'arrived', arrivedAt }), 'no_show', NOW)).toBe('The passenger has free waiting time: No-show can be tapped in 5 minutes.');
    expect(stepRefusal(job({ jobStatus: 'arrived', arrivedAt }), 'no_show', new Date('2030-10-03T06:34:30Z')))
      .toBe('The passenger has free waiting time: No-show can be tapped in 1 minute.');
    expect(stepRefusal(job({ jobStatus: 'arrived', arrivedAt }), 'no_show', new Date('2030-10-03T06:34:59.900Z')))
      .toBe('The passenger has free waiting time: No-show can be tapped in 1 minute.');
  });

  it('names where the job stands and the step that cannot be tapped', () => {
    expect(stepRefusal(job(), 'completed', NOW)).toBe('This job is "Waiting for the driver to accept": Completed cannot be tapped now. Reload to see where it stands.');
    expect(stepRefusal(job({ jobStatus: 'on_way' }), 'no_show', NOW)).toBe('This job is "Driver on the way": No-show cannot be tapped now. Reload to see where it stands.');
  });
});

describe('the words and kinds', () => {
  it('name every status and step, and know them apart from anything else', () => {
    expect(Object.keys(JOB_STATUS_LABELS)).toEqual([...JOB_STATUSES]);
    expect(Object.keys(STEP_LABELS)).toEqual([...JOB_STEPS]);
    expect(STEP_LABELS).toEqual({
      accepted: 'Accept', declined: 'Decline', on_way: 'On my way', arrived: 'Arrived', on_board: 'Passenger on board', completed: 'Completed', no_show: 'No-show',
    });
    expect(JOB_STATUS_LABELS).toEqual({
      assigned: 'Waiting for the driver to accept', accepted: 'Accepted by the driver', declined: 'Declined by the driver', on_way: 'Driver on the way',
      arrived: 'Driver at the pickup', on_board: 'Passenger on board', completed: 'Completed', no_show: 'No-show',
    });
    expect(CONFIRMED_STEPS).toEqual(['declined', 'completed', 'no_show']);
    expect(isJobStatus('assigned')).toBe(true);
    expect(isJobStatus('teleported')).toBe(false);
    expect(isJobStatus(3)).toBe(false);
    expect(isJobStep('on_way')).toBe(true);
    expect(isJobStep('assigned')).toBe(false);
    expect(isJobStep(undefined)).toBe(false);
  });
});
