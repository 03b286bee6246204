// Model-based tests of machines/accountJourneys.ts, the corporate area's Journeys and expenses (issue 44 §3): paths
// generated from the model (./models/accountJourneys.ts) cover every transition, with the facts checked after
// each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { session } from './fixtures';
import { badDate, byMonth, byPo, downloadJourneysCsv, fetchJourneys, listed, model, none, reversed } from './models/accountJourneys';
import { NO_FILTER } from '../../src/domain/expenses';

testModel(model);

describe('what the journeys page does on its way', () => {
  it('asks for everything first, then the filter given; the CSV is of the list on screen, not of a filter refused, nor of an empty list', async () => {
    const sut = run(model, { session });
    await sut.exec(fetchJourneys.done(listed));
    await sut.exec(reversed);
    expect(sut.calls.length).toBe(1);
    expect(sut.snapshot.context.error).toEqual({ message: 'The first day comes after the last.', field: 'to', status: 422 });
    await sut.exec(byMonth);
    await sut.exec(fetchJourneys.fails(badDate));
    expect([sut.snapshot.value, sut.snapshot.context.answer]).toEqual(['ready', listed]);
    await sut.exec({ type: 'journeys.csv' });
    await sut.exec(downloadJourneysCsv.done());
    await sut.exec(byPo);
    await sut.exec(fetchJourneys.done(listed));
    await sut.exec({ type: 'journeys.csv' });
    await sut.exec(downloadJourneysCsv.done());
    // An empty list has nothing to download.
    await sut.exec(byMonth);
    await sut.exec(fetchJourneys.done(none));
    await sut.exec({ type: 'journeys.csv' });
    const { from, to, field, value } = byPo as typeof byPo & typeof NO_FILTER;
    expect(sut.calls).toEqual([
      { service: 'fetchJourneys', input: { session, filter: NO_FILTER } },
      { service: 'fetchJourneys', input: { session, filter: { ...NO_FILTER, from: '2030-05-01', to: '2030-05-31' } } },
      { service: 'downloadJourneysCsv', input: { session, filter: NO_FILTER } },
      { service: 'fetchJourneys', input: { session, filter: { from, to, field, value } } },
      { service: 'downloadJourneysCsv', input: { session, filter: { from, to, field, value } } },
      { service: 'fetchJourneys', input: { session, filter: { ...NO_FILTER, from: '2030-05-01', to: '2030-05-31' } } },
    ]);
    expect(sut.snapshot.value).toBe('ready');
    sut.stop();
  });
});
