// Model-based tests of machines/phoneBooking.ts (./modelPaths.ts), the console's New booking (issue 43 §1): paths
// generated from the model (./models/phoneBooking.ts) cover every transition, with the page's facts after each step.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { details, INPUTS, model, OFFERS, price, take } from './models/phoneBooking';

testModel(model);

describe('what New booking does on its way', () => {
  it('books the chosen vehicle of the priced journey with one key, sent again as it was after a refusal', async () => {
    const sut = run(model, INPUTS['New booking in the console']);
    const journey = model.events.find((e) => e.type === 'journey.price')!;
    await sut.exec(journey);
    await sut.exec(price.done(OFFERS));
    await sut.exec({ type: 'vehicle.choose', vehicle_id: 1, company_id: 1 });
    await sut.exec({ type: 'book', details });
    const first = sut.calls.at(-1)!;
    await sut.exec(take.fails(Object.assign(new Error('The card payment service did not answer.'), { status: 503 })));
    await sut.exec({ type: 'book', details });
    expect(sut.calls.at(-1)).toEqual(first);
    expect((first.input as { key: string }).key).toMatch(/^[0-9a-f]{32}$/);
    sut.stop();
  });
});
