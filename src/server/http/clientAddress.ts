// Who is asking, for per-address limits: the socket's address, or behind a
// trusted proxy (TRUST_PROXY=1) the address that proxy appended last to
// X-Forwarded-For (entries before it are whatever the client claimed).
// IPv6 clients are grouped by their /64 network, which one subscriber usually holds whole.
import type { Context } from 'hono';

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const last = c.req.header('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean).at(-1);
    if (last) return normaliseAddress(last);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return normaliseAddress(env?.incoming?.socket?.remoteAddress ?? 'unknown');
}

export function normaliseAddress(raw: string): string {
  const a = raw.trim().toLowerCase().slice(0, 64);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1];
  if (!a.includes(':')) return a;
  const [head, tail = ''] = a.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = a.includes('::') && tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
