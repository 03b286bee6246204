// The server's outbox (DATA_DIR/outbox: one .eml file per message, decision 34), read as a person reads mail.
import path from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** A message of the server's outbox: its headers and decoded text parts. */
export interface OutboxMail { file: string; headers: Record<string, string>; texts: string[] }

function splitHeaders(raw: string): [Record<string, string>, string] {
  const unix = raw.replace(/\r\n/g, '\n');
  const end = unix.indexOf('\n\n');
  const headers: Record<string, string> = {};
  for (const line of (end < 0 ? unix : unix.slice(0, end)).replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return [headers, end < 0 ? '' : unix.slice(end + 2)];
}

function decodeBody(body: string, encoding = ''): string {
  switch (encoding.toLowerCase()) {
    case 'base64': return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const soft = body.replace(/=\n/g, ''); // soft line breaks may fall inside the code
      const bytes: number[] = [];
      for (let i = 0; i < soft.length; i++) {
        const hex = soft.slice(i + 1, i + 3);
        if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) { bytes.push(parseInt(hex, 16)); i += 2; } else bytes.push(...Buffer.from(soft[i]));
      }
      return Buffer.from(bytes).toString('utf8');
    }
    default: return body;
  }
}

/** The text of every text/plain and text/html part (HTML without its tags), decoded. */
function textParts(raw: string): string[] {
  const [headers, body] = splitHeaders(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body.split(`--${boundary}`).slice(1).filter((part) => !part.startsWith('--')).flatMap((part) => textParts(part.replace(/^\r?\n/, '')));
  }
  if (!/^text\//i.test(type)) return [];
  const text = decodeBody(body, headers['content-transfer-encoding']);
  return [/^text\/html/i.test(type) ? text.replace(/<[^>]*>/g, ' ') : text];
}

/** Every message in the outbox, oldest first. */
export function outboxMails(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    return { file, headers: splitHeaders(raw)[0], texts: textParts(raw) };
  });
}

/** The texts in the server's SMS folder (DATA_DIR/sms: one .txt file each, issue 41), oldest first. */
export function smsTexts(dataDir: string): { file: string; to: string; text: string }[] {
  const dir = path.join(dataDir, 'sms');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.txt')).sort().map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    return { file, to: /^To: (.+)$/m.exec(raw)?.[1] ?? '', text: raw.slice(raw.indexOf('\n\n') + 2).trim() };
  });
}
