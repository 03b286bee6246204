// The contact machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 'Contact Us' and SPEC 8 'Contact'.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { contactMachine } from '../../machines/contact';
import { form, model } from '../machine/models/contact';
import { browserPaths, type PathPage } from './pathRunner';
import type { Trail } from '../machine/modelPaths';

type S = SnapshotFrom<typeof contactMachine>;
const SUBMITTED = 'Your form has been submitted successfully!. Thank You for Contacting';

async function fillContactForm(p: PathPage) {
  const { page } = p;
  await page.getByLabel('First name').fill(form.firstName);
  await page.getByLabel('Last name').fill(form.lastName);
  await page.getByLabel('Email').fill(form.email);
  await page.getByLabel('Telephone').fill(form.telephone);
  await page.getByLabel('Reason for your query').selectOption(form.queryReason);
  await page.getByLabel('Booking number (if you have one)').fill(form.bookingNumber);
  await page.getByLabel('Your message').fill(form.comments);
}

const failureOf = (e: { type: string; error?: unknown } | undefined) => (e?.type.startsWith('xstate.error.actor.') ? e.error as Error : null);

browserPaths({
  model,
  open: (p) => p.typeUrl('/contactus'),
  acts: {
    'contact.submit': async (p, { next }) => {
      await fillContactForm(p);
      const failure = failureOf(next as never);
      if (failure) await p.server.fault({ method: 'POST', path: '/api/v1/contact-us', kind: 'status', status: 422, message: failure.message });
      await p.page.getByRole('button', { name: 'Send message' }).click();
    },
    'dialog.closed': (p) => p.closeDialog(),
  },
  async sees(p, s: S, trail: Trail<S>) {
    await p.at('/contactus');
    await p.heading('Contact Us');
    const last = trail.at(-1)?.event as { type: string; error?: Error } | undefined;
    if (s.matches('submitted')) await p.dialog('Form Submitted', SUBMITTED);
    if (s.matches('failed')) await p.dialog('Submission Failed', failureOf(last)!.message);
    if (s.matches('editing')) {
      await p.noDialog();
      // After a message is sent the form starts again empty; after a failure what was typed stays.
      const before = trail.at(-2)?.state.value;
      const firstName = await p.page.getByLabel('First name').inputValue();
      if (before === 'submitted') expect(firstName).toBe('');
      if (before === 'failed') expect(firstName).toBe(form.firstName);
    }
  },
});
