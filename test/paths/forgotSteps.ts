// What a person does on /forgot_password (SPEC 4 'Forgot password'), shared by the forgot-password machine's paths
// and the wizard's: the code is read from the mail the server sends.
import { outboxMails } from '../e2e/outbox';
import type { PathPage } from './pathRunner';

const resetMails = (p: PathPage, email: string) =>
  outboxMails(p.server.dataDir).filter((m) => m.headers.to?.includes(email) && /reset code is \d{6}/.test(m.texts.join(' ')));

export const stepForm = (p: PathPage, name: 'Step 1: your email' | 'Step 2: the code' | 'Step 3: a new password') =>
  p.page.getByRole('form', { name });

/** Step 1: asks for a code for the address. */
export async function requestCode(p: PathPage, email: string) {
  p.data.mailsBefore = resetMails(p, email).length;
  await stepForm(p, 'Step 1: your email').getByLabel('Email').fill(email);
  await p.page.getByRole('button', { name: 'Send code' }).click();
}

/** The code of the reset mail the last request sent (the server's queue sends it, so it may take a moment). */
export async function mailedCode(p: PathPage, email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = resetMails(p, email);
    if (mails.length > (p.data.mailsBefore ?? 0)) return /reset code is (\d{6})/.exec(mails.at(-1)!.texts.join(' '))![1];
    if (Date.now() > deadline) throw new Error(`no reset code mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Step 2: types the code. */
export async function verifyCode(p: PathPage, code: string) {
  await stepForm(p, 'Step 2: the code').getByLabel('Code').fill(code);
  await p.page.getByRole('button', { name: 'Verify code' }).click();
}

/** Step 3: types the new password twice. */
export async function setPassword(p: PathPage, password: string, confirm = password) {
  await p.page.getByLabel('New password *', { exact: true }).fill(password);
  await p.page.getByLabel('Confirm new password *', { exact: true }).fill(confirm);
  await p.page.getByRole('button', { name: 'Reset password' }).click();
}
