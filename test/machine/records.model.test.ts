// Model-based tests of machines/operatorRecords.ts (./modelPaths.ts), the console's Records page (issue 43 §2): paths
// generated from the model (./models/records.ts) cover every transition, with the page's facts checked after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { answerFor, csv, INPUTS, load, model, TODAY, WEEK } from './models/records';

testModel(model);

describe('what the records page does on its way', () => {
  it("asks for today's records when the address names no day, shows the range answered, and downloads that range's CSV", async () => {
    const sut = run(model, INPUTS['the Records link (no range: today)']);
    expect(sut.calls).toEqual([{ service: 'loadBookingRecords', input: { from: '', to: '' } }]);
    await sut.exec(load.done(answerFor(TODAY)));
    await sut.exec({ type: 'records.csv' });
    expect(sut.calls.at(-1)).toEqual({ service: 'downloadRecordsCsv', input: TODAY });
    await sut.exec(csv.done());
    await sut.exec({ type: 'records.show', range: WEEK });
    expect(sut.calls.at(-1)).toEqual({ service: 'loadBookingRecords', input: WEEK });
    expect(sut.received.at(-1)).toEqual({ type: 'page.location', location: { path: '/operator/records', search: `?from=${TODAY.from}&to=${TODAY.to}` } });
    sut.stop();
  });
});
