// Model-based tests of machines/contact.ts (./modelPaths.ts): SPEC 2 'Contact Us' and SPEC 8 'Contact': the
// form is sent once per submit; success shows the server's confirmation and starts a new, empty form; failure
// shows the server's error text and keeps what was typed.
import { describe, expect, it } from 'vitest';
import { run, testModel } from './modelPaths';
import { sendContact, form, model } from './models/contact';

testModel(model);

describe('what the machine does on its way', () => {
  it('sends the form as typed, and again after a failure once the visitor submits again', async () => {
    const sut = run(model, undefined);
    await sut.exec({ type: 'contact.submit', form });
    await sut.exec(sendContact.fails(new Error('Could not reach the server')));
    await sut.exec({ type: 'dialog.closed' });
    await sut.exec({ type: 'contact.submit', form: { ...form, comments: 'Black umbrella, back seat.' } });
    expect(sut.calls).toEqual([
      { service: 'sendContact', input: form },
      { service: 'sendContact', input: { ...form, comments: 'Black umbrella, back seat.' } },
    ]);
    sut.stop();
  });
});
