// Where messages go: an SMTP server when SMTP_URL is set, otherwise .eml files
// in DATA_DIR/outbox (each subject is logged), so nothing needs a mail server.
// Addresses reach nodemailer as address objects, never as text it would parse,
// so no value can turn into a list of recipients or a group.
//
// A message keeps one identity for all its attempts (its key): the same
// Message-ID every time, and in the outbox the same file name, written under a
// temporary name and renamed into place, so a send repeated after a crash
// replaces its file whole and a reader never sees half a message or two copies.
import { rename, writeFile as writeFileCallback } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { isEmail } from '../../domain/fields';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../privateData';

export interface OutgoingMessage {
  /** The message's identity, the same on every attempt: letters and digits (outbound_emails.message_key). */
  key: string;
  /** When the message was written: its Date header and the start of its outbox file name. */
  createdAt: Date;
  from: string; to: string;
  /** One address that gets a copy (the company on the office's notice of its booking). */
  cc?: string;
  replyTo?: string; subject: string; text: string; html: string;
}
export interface MailTransport {
  readonly description: string;
  send(msg: OutgoingMessage): Promise<void>;
  /**
   * A message handed over again with the same key replaces its first copy instead of making a second (the outbox: the
   * same file, written whole under its own name). The queue then marks a claimed batch sent in one statement once all
   * of it is handed over (issue 40): a crash in between hands some over again, and nothing is there twice. An SMTP
   * server would deliver a repeat: its messages are marked one by one, so at most the one in hand repeats (issue 24).
   */
  readonly repeatSafe?: boolean;
}

/** Exactly one checked address, as nodemailer takes it without parsing. */
function address(value: string, role: string): Mail.Address {
  if (!isEmail(value)) throw new Error(`refused to send: the ${role} address "${value.slice(0, 80)}" is not one valid e-mail address`);
  return { name: '', address: value.trim() };
}

/** The Message-ID header of a message: its key at the sender's domain. */
export function messageId(msg: Pick<OutgoingMessage, 'key' | 'from'>): string {
  if (!/^[A-Za-z0-9]{8,64}$/.test(msg.key)) throw new Error(`refused to send: "${msg.key.slice(0, 80)}" is not a message key`);
  return `<${msg.key}@${msg.from.trim().split('@')[1]}>`;
}

export function toMailOptions(msg: OutgoingMessage): Mail.Options {
  return {
    messageId: messageId(msg), date: msg.createdAt,
    from: address(msg.from, 'sender'),
    to: [address(msg.to, 'recipient')],
    cc: msg.cc ? [address(msg.cc, 'copy')] : undefined,
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
export function outboxMessage(msg: OutgoingMessage): string {
  const checked = (value: string, role: string): string => { address(value, role); return value.trim(); };
  const from = checked(msg.from, 'sender');
  const to = checked(msg.to, 'recipient');
  const cc = msg.cc ? checked(msg.cc, 'copy') : null;
  const replyTo = msg.replyTo ? checked(msg.replyTo, 'reply-to') : null;
  const boundary = `--_alt_${msg.key}`;
  return [
    `From: ${from}`, `To: ${to}`, ...(cc ? [`Cc: ${cc}`] : []), ...(replyTo ? [`Reply-To: ${replyTo}`] : []), `Subject: ${headerValue(msg.subject)}`,
    `Message-ID: ${messageId(msg)}`, `Date: ${msg.createdAt.toUTCString()}`, 'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(msg.text),
    `--${boundary}`, 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(msg.html),
    `--${boundary}--`, '',
  ].join('\n');
}

/** The outbox file of a message: when it was written, then its key, so names sort oldest first and never repeat. */
export function outboxFileName(msg: Pick<OutgoingMessage, 'key' | 'createdAt'>): string {
  return `${msg.createdAt.toISOString().replace(/[:.]/g, '-')}-${msg.key}.eml`;
}

/** How the outbox writes: node's fs, with callbacks (the promise API builds a FileHandle per file, 6% of a booking's CPU). */
export interface OutboxFiles {
  writeFile(file: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

const nodeFiles: OutboxFiles = {
  writeFile: (file, data) => new Promise((resolve, reject) => {
    writeFileCallback(file, data, { mode: PRIVATE_FILE }, (err) => (err ? reject(err) : resolve()));
  }),
  rename: (from, to) => new Promise((resolve, reject) => { rename(from, to, (err) => (err ? reject(err) : resolve())); }),
};

export function outboxTransport(dir: string, log: (line: string) => void = console.log, files: OutboxFiles = nodeFiles): MailTransport {
  let made: Promise<unknown> | null = null;
  const makeFolder = () => mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER });
  return {
    description: `outbox folder ${dir}`,
    repeatSafe: true,
    async send(msg) {
      const eml = outboxMessage(msg);
      made ??= makeFolder().catch((err) => { made = null; throw err; });
      await made;
      const name = outboxFileName(msg);
      const file = path.join(dir, name);
      // Not an .eml name, so no reader takes it for a message; a later attempt writes the same one again.
      const partial = path.join(dir, `.${name}.partial`);
      const write = async () => { await files.writeFile(partial, eml); await files.rename(partial, file); };
      // A folder removed while the server runs is made again.
      await write().catch(async (err) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await makeFolder();
        await write();
      });
      log(`Mail to ${msg.to}${msg.cc ? ` (copy to ${msg.cc})` : ''}: "${msg.subject}" -> ${file}`);
    },
  };
}

/** A file being written lives for milliseconds; one older than this was left by a crash. */
const ABANDONED_PARTIAL_MS = 60 * 60_000;

/**
 * Deletes outbox messages written more than `days` ago (OUTBOX_RETENTION_DAYS; every .eml file there was sent, as every
 * .txt file of the sms folder), and partial files a crash left. Returns how many files went. Anything else in the folder is left alone.
 */
export async function removeOldOutboxFiles(dir: string, days: number, now = Date.now(), ext: '.eml' | '.txt' = '.eml'): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const maxAge = name.endsWith(ext) ? days * 86_400_000 : /^\..*\.partial$/.test(name) ? ABANDONED_PARTIAL_MS : null;
    if (maxAge === null) continue;
    const file = path.join(dir, name);
    const written = await stat(file).then((st) => (st.isFile() ? st.mtimeMs : null), () => null);
    if (written === null || now - written <= maxAge) continue;
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}
