// Model-based tests of machines/driverFoundItem.ts, a driver's found item (issue 43 §3): paths generated from the model
// (./models/driverFoundItem.ts) cover every transition, with the facts checked after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { blank, down, item, model, NUMBER, REF, reportFound } from './models/driverFoundItem';

testModel(model);

describe('what the found item form does on its way', () => {
  it('sends nothing the rules refuse, then what was typed, again after a failure, and closes with the number', async () => {
    const sut = run(model, { reference: REF });
    await sut.exec(blank);
    expect(sut.calls).toEqual([]);
    expect(sut.snapshot.context.fieldErrors).toEqual({ description: 'Enter what you found.' });
    await sut.exec(item);
    await sut.exec(reportFound.fails(down));
    await sut.exec({ ...item, found_place: 'Boot' });
    await sut.exec(reportFound.done({ number: NUMBER }));
    expect(sut.calls).toEqual([
      { service: 'reportFound', input: { reference: REF, description: 'A black umbrella', found_place: 'Back seat' } },
      { service: 'reportFound', input: { reference: REF, description: 'A black umbrella', found_place: 'Boot' } },
    ]);
    expect(sut.snapshot.output).toEqual({ kind: 'reported', number: NUMBER });
    sut.stop();
  });
});
