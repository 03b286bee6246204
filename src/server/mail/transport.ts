// Where messages go: an SMTP server when SMTP_URL is set, otherwise .eml files
// in DATA_DIR/outbox (each subject is logged), so nothing needs a mail server.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMessage { from: string; to: string; replyTo?: string; subject: string; text: string; html: string }
export interface MailTransport { readonly description: string; send(msg: OutgoingMessage): Promise<void> }

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    description: `SMTP (${new URL(url).host})`,
    async send(msg) { await transporter.sendMail(msg); },
  };
}

export function outboxTransport(dir: string, log: (line: string) => void = console.log): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `outbox folder ${dir}`,
    async send(msg) {
      const info = await builder.sendMail(msg);
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${info.messageId.replace(/[^a-zA-Z0-9]+/g, '').slice(0, 24)}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`Mail to ${msg.to}: "${msg.subject}" -> ${file}`);
    },
  };
}
