// Where text messages go (issue 41 §4, decision 55): Twilio, through its official `twilio` package, when its account,
// token and sender are set (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM); otherwise an `sms` folder in the data
// folder, one file per message, like the mail outbox, so everything works with no keys. The queue (./queue.ts) sends
// both, with the same guarantees. A text keeps one identity for all its attempts (its key): in the folder, the same
// file, written whole under its own name, so a repeat after a crash replaces it. Twilio has no such key: its texts
// are marked sent one by one, so at most the one in hand repeats.
import { rename, writeFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../privateData';

export interface OutgoingSms {
  /** The message's identity, the same on every attempt (outbound_emails.message_key). */
  key: string;
  createdAt: Date;
  /** E.164. */
  to: string;
  text: string;
}

export interface SmsTransport {
  readonly description: string;
  /** A repeat replaces its first copy (the folder): the queue may hand a batch over at once (see MailTransport). */
  readonly repeatSafe?: boolean;
  /** Hands the text over; the provider's id of it, when it has one (Twilio's MessageSid). */
  send(msg: OutgoingSms): Promise<{ providerId?: string }>;
}

/**
 * The provider will never take this text (the number opted out with STOP, or is no phone): failed at once, never
 * retried; `optedOut` records the number so nothing more is written to it.
 */
export class SmsRefused extends Error {
  constructor(message: string, readonly optedOut: boolean) { super(message); }
}

/** E.164, as every number is stored (decision 20). */
const isE164 = (to: string) => /^\+[1-9]\d{7,14}$/.test(to);

/** The folder's file of a text: when it was written, then its key, so names sort oldest first and never repeat. */
export const smsFileName = (msg: Pick<OutgoingSms, 'key' | 'createdAt'>) => `${msg.createdAt.toISOString().replace(/[:.]/g, '-')}-${msg.key}.txt`;

/** The file a text is written as: the number, when, and its words. */
export const smsFile = (msg: OutgoingSms) => `To: ${msg.to}\nDate: ${msg.createdAt.toISOString()}\n\n${msg.text}\n`;

export function smsOutboxTransport(dir: string, log: (line: string) => void = console.log): SmsTransport {
  let made: Promise<unknown> | null = null;
  return {
    description: `SMS folder ${dir}`,
    repeatSafe: true,
    async send(msg) {
      if (!isE164(msg.to)) throw new SmsRefused(`"${msg.to.slice(0, 30)}" is not a phone number in E.164`, false);
      made ??= mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER }).catch((err) => { made = null; throw err; });
      await made;
      const name = smsFileName(msg);
      const partial = path.join(dir, `.${name}.partial`);
      const write = async () => { await writeFile(partial, smsFile(msg), { mode: PRIVATE_FILE }); await rename(partial, path.join(dir, name)); };
      // A folder removed while the server runs is made again.
      await write().catch(async (err) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await mkdir(dir, { recursive: true, mode: PRIVATE_FOLDER });
        await write();
      });
      // Not its words: a text may hold a sign-in code or a link's key.
      log(`SMS to ${msg.to} (${msg.text.length} characters) -> ${path.join(dir, name)}`);
      return {};
    },
  };
}

export interface TwilioSettings {
  accountSid: string; authToken: string;
  /** The sender: a number in E.164, an alphanumeric sender id, or a Messaging Service (MG...). */
  from: string;
  /** Where Twilio reports each text's delivery (the site's /api/v1/sms/status). */
  statusCallback?: string;
  /** Where the package sends its calls instead of api.twilio.com (TWILIO_API_URL): a local stand-in, for tests. */
  apiUrl?: string;
}

/** Twilio's error codes a retry cannot mend: 21610 the number sent STOP; 21211, 21614 not a (mobile) number. */
const OPTED_OUT = 21610;
const NEVER = new Set([21211, 21614, 21408]);

export function twilioSmsTransport(s: TwilioSettings): SmsTransport {
  // The package is loaded with the first text, not at start (decision 31).
  let client: Promise<{ messages: { create(o: Record<string, unknown>): Promise<{ sid: string }> } }> | null = null;
  const connect = async () => {
    const twilio = (await import('twilio')).default;
    let httpClient;
    if (s.apiUrl) {
      const { default: RequestClient } = await import('twilio/lib/base/RequestClient.js');
      const real = new RequestClient({ timeout: 20_000 });
      const base = s.apiUrl.replace(/\/$/, '');
      // The same calls as to Twilio, to the stand-in's address.
      httpClient = Object.assign(Object.create(real), {
        request: (opts: { uri: string }) => real.request({ ...opts, uri: opts.uri.replace(/^https:\/\/api\.twilio\.com/, base) } as never),
      });
    }
    return twilio(s.accountSid, s.authToken, { httpClient, timeout: 20_000 } as never) as never;
  };
  return {
    description: `Twilio (${s.from})`,
    async send(msg) {
      if (!isE164(msg.to)) throw new SmsRefused(`"${msg.to.slice(0, 30)}" is not a phone number in E.164`, false);
      client ??= connect();
      const sender = s.from.startsWith('MG') ? { messagingServiceSid: s.from } : { from: s.from };
      try {
        const sent = await (await client).messages.create({
          to: msg.to, body: msg.text, ...sender, ...(s.statusCallback ? { statusCallback: s.statusCallback } : {}),
        });
        return { providerId: sent.sid };
      } catch (err) {
        const code = Number((err as { code?: unknown }).code);
        if (code === OPTED_OUT) throw new SmsRefused(`the number has opted out of texts (STOP; Twilio ${code})`, true);
        if (NEVER.has(code)) throw new SmsRefused(`Twilio will not text this number (${code}: ${(err as Error).message})`, false);
        throw err;
      }
    },
  };
}
