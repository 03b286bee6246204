// Model-based tests of machines/operatorPrivacy.ts (./modelPaths.ts), the console's privacy requests page (issue 43
// §4): paths generated from the model (./models/privacy.ts) cover every transition, with the page's facts checked after
// each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { ADA, ERASED, HELD, erase, file, lookup, INPUTS, model } from './models/privacy';

testModel(model);

describe('what the privacy page does on its way', () => {
  it('looks the address up, saves the file of what it shows, and erases that address after confirming', async () => {
    const sut = run(model, INPUTS['the Privacy link']);
    await sut.exec({ type: 'privacy.lookup', email: ` ${ADA} ` });
    expect(sut.calls).toEqual([{ service: 'exportPersonalData', input: { email: ADA } }]);
    await sut.exec(lookup.done(HELD));
    await sut.exec({ type: 'privacy.download' });
    expect(sut.calls.at(-1)).toEqual({ service: 'saveExportFile', input: { found: HELD } });
    await sut.exec(file.done());
    await sut.exec({ type: 'privacy.erase' });
    await sut.exec({ type: 'privacy.confirm' });
    expect(sut.calls.at(-1)).toEqual({ service: 'erasePersonalData', input: { email: ADA } });
    await sut.exec(erase.done(ERASED));
    // The console's address stays /operator/privacy: the page never tells it another.
    expect(sut.received).toEqual([]);
    sut.stop();
  });
});
