// Where messages go: an SMTP server when SMTP_URL is set, otherwise .eml files
// in DATA_DIR/outbox (each subject is logged), so nothing needs a mail server.
// Addresses reach nodemailer as address objects, never as text it would parse,
// so no value can turn into a list of recipients or a group.
import { randomUUID } from 'node:crypto';
import { writeFile as writeFileCallback } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { isEmail } from '../../domain/fields';

export interface OutgoingMessage { from: string; to: string; replyTo?: string; subject: string; text: string; html: string }
export interface MailTransport { readonly description: string; send(msg: OutgoingMessage): Promise<void> }

/** Exactly one checked address, as nodemailer takes it without parsing. */
function address(value: string, role: string): Mail.Address {
  if (!isEmail(value)) throw new Error(`refused to send: the ${role} address "${value.slice(0, 80)}" is not one valid e-mail address`);
  return { name: '', address: value.trim() };
}

export function toMailOptions(msg: OutgoingMessage): Mail.Options {
  return {
    from: address(msg.from, 'sender'),
    to: [address(msg.to, 'recipient')],
    replyTo: msg.replyTo ? [address(msg.replyTo, 'reply-to')] : undefined,
    subject: msg.subject, text: msg.text, html: msg.html,
  };
}

export function smtpTransport(url: string): MailTransport {
  const description = `SMTP (${new URL(url).host})`;
  // nodemailer is loaded with the first message, not at start (decision 31). Every wait is bounded, well inside the
  // mail queue's lease.
  let transporter: Promise<Transporter> | null = null;
  const connect = async () => (await import('nodemailer')).default
    .createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    description,
    async send(msg) {
      const options = toMailOptions(msg);
      transporter ??= connect();
      await (await transporter).sendMail(options);
    },
  };
}

/** Base64 in lines of 76, as MIME wants it. */
function base64Lines(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64').replace(/.{76}/g, '$&\n').replace(/\n$/, '');
}

/**
 * A header value as it may stand in a message: printable ASCII as it is, anything else (or a value too long for one
 * line) as UTF-8 encoded words of at most 45 bytes each, folded onto lines of their own.
 */
export function headerValue(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(oneLine) && oneLine.length <= 900) return oneLine;
  const words: string[] = [];
  let chunk = '';
  for (const ch of oneLine) {
    if (Buffer.byteLength(chunk + ch) > 45) { words.push(chunk); chunk = ''; }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\n ');
}

/**
 * The message as an .eml file (multipart/alternative: the text, then the HTML, both UTF-8 in base64), built
 * directly: nodemailer's composer (streams, quoted-printable, four random ids) was a tenth of a booking's CPU when
 * every confirmation goes to the outbox. Addresses are checked by the same rule as for SMTP.
 */
export function outboxMessage(msg: OutgoingMessage, id: string, date = new Date()): string {
  const checked = (value: string, role: string): string => { address(value, role); return value.trim(); };
  const from = checked(msg.from, 'sender');
  const to = checked(msg.to, 'recipient');
  const replyTo = msg.replyTo ? checked(msg.replyTo, 'reply-to') : null;
  const boundary = `--_alt_${id}`;
  return [
    `From: ${from}`, `To: ${to}`, ...(replyTo ? [`Reply-To: ${replyTo}`] : []), `Subject: ${headerValue(msg.subject)}`,
    `Message-ID: <${id}@${from.split('@')[1]}>`, `Date: ${date.toUTCString()}`, 'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(msg.text),
    `--${boundary}`, 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(msg.html),
    `--${boundary}--`, '',
  ].join('\n');
}

/** fs.writeFile with a callback: the promise API builds a FileHandle per file (6% of a booking's CPU). */
const writeFile = (file: string, data: string) => new Promise<void>((resolve, reject) => {
  writeFileCallback(file, data, (err) => (err ? reject(err) : resolve()));
});

export function outboxTransport(dir: string, log: (line: string) => void = console.log): MailTransport {
  let made: Promise<unknown> | null = null;
  return {
    description: `outbox folder ${dir}`,
    async send(msg) {
      const id = randomUUID().replace(/-/g, '');
      const eml = outboxMessage(msg, id);
      made ??= mkdir(dir, { recursive: true }).catch((err) => { made = null; throw err; });
      await made;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${id}.eml`);
      // A folder removed while the server runs is made again.
      await writeFile(file, eml).catch(async (err) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true });
        await writeFile(file, eml);
      });
      log(`Mail to ${msg.to}: "${msg.subject}" -> ${file}`);
    },
  };
}
