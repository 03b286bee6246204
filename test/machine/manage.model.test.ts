// Model-based tests of machines/manage.ts, a passenger's booking through its link (issue 27): paths generated from
// the model (./models/manage.ts) cover every transition, with the facts checked after each step. What the
// live stream tells the page (issues 41, 42: the driver's job, a flight's news or a pickup it moved) is among them.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { INPUTS, KEY, REF, loadBooking, model, open, question, readKey, saveChange, toPay, values } from './models/manage';

testModel(model);

describe('what the manage page does on its way', () => {
  it('sends a change, confirms the new price, then pays the difference for that change', async () => {
    const sut = run(model, INPUTS["a link from the booking's e-mail"]);
    expect(sut.calls.at(-1)).toEqual({ service: 'readKey', input: { reference: REF } });
    await sut.exec(readKey.done(KEY));
    expect(sut.calls.at(-1)).toEqual({ service: 'loadBooking', input: { reference: REF, key: KEY } });
    await sut.exec(loadBooking.done(open));
    await sut.exec({ type: 'edit.open' });
    const asked = { ...values, pickup_hour: '9am' };
    await sut.exec({ type: 'change.submit', values: asked });
    expect(sut.calls.at(-1)).toEqual({ service: 'saveChange', input: { reference: REF, key: KEY, values: asked, acceptTotal: null } });
    await sut.exec(saveChange.done(question));
    await sut.exec({ type: 'price.accept' });
    expect(sut.calls.at(-1)).toEqual({ service: 'saveChange', input: { reference: REF, key: KEY, values: asked, acceptTotal: '82.00' } });
    await sut.exec(saveChange.done(toPay));
    expect(sut.calls.at(-1)).toEqual({
      service: 'cardPayment',
      input: {
        booking: { change: { reference: REF, key: KEY, id: 5 }, payer: { name: open.booking.passengerDetails.passenger_name, email: open.booking.passengerDetails.passenger_email } },
        amountPence: 2000, intentId: null,
      },
    });
    sut.stop();
  });
});
