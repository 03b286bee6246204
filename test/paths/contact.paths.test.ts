// The contact machine's generated paths in Chromium (./pathRunner.ts): SPEC 2 'Contact Us' and SPEC 8 'Contact'.
import { form, model, sendContact } from '../machine/models/contact';
import { browserPaths, type PathPage } from './pathRunner';
import { isFailure, isWaiting, serviceOf } from './screens';
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
  oracle: {
    calls: { sendContact: { method: 'POST', path: '/api/v1/contact-us' } },
    opens: () => ({ screen: 'contact' }),
    // SPEC 8 'Contact': 'Form Submitted' with the server's words, or 'Submission Failed' with its error; after a
    // message is sent the form starts again empty, after a failure what was typed stays.
    after(before, e) {
      const service = serviceOf(e, { sendContact });
      if (service) {
        if (!isWaiting(before) || before.waiting !== service) return undefined;
        return isFailure(e)
          ? { screen: 'contact', dialog: { title: 'Submission Failed', texts: [failureOf(e)!.message] } }
          : { screen: 'contact', dialog: { title: 'Form Submitted', texts: [SUBMITTED] } };
      }
      if (isWaiting(before)) return undefined;
      if (e.type === 'contact.submit' && !before.dialog) return { waiting: 'sendContact' };
      if (e.type === 'dialog.closed' && before.dialog) {
        return { screen: 'contact', values: { 'First name': before.dialog.title === 'Form Submitted' ? '' : form.firstName } };
      }
      return undefined;
    },
  },
});
