// Where messages go: an SMTP server when SMTP_URL is set, otherwise .eml files
// in DATA_DIR/outbox (each subject is logged), so nothing needs a mail server.
// Addresses reach nodemailer as address objects, never as text it would parse,
// so no value can turn into a list of recipients or a group.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
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
  // Every wait is bounded, well inside the mail queue's lease.
  const transporter = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    description: `SMTP (${new URL(url).host})`,
    async send(msg) { await transporter.sendMail(toMailOptions(msg)); },
  };
}

export function outboxTransport(dir: string, log: (line: string) => void = console.log): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `outbox folder ${dir}`,
    async send(msg) {
      const info = await builder.sendMail(toMailOptions(msg));
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${info.messageId.replace(/[^a-zA-Z0-9]+/g, '').slice(0, 24)}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`Mail to ${msg.to}: "${msg.subject}" -> ${file}`);
    },
  };
}
