// Server-Sent Events from the API (issue 41 §5), read with fetch so the call carries the API's headers (and a manage
// link's key) as every other call does. A stream the server ends (it does after 5 minutes) or that breaks is opened
// again: after about 1 s, then up to 30 s apart while it keeps failing; a refusal (401, 404, 410) stops it for good, as
// `onRefused` is told. Answers the function that closes it.

const config = window.__APP_CONFIG__ ?? { apiPublicKey: '', apiSecretKey: '' };

export interface LiveOptions {
  headers?: Record<string, string>;
  onEvent: (event: string, data: unknown) => void;
  /** The server refused the stream (its status): no use asking again. */
  onRefused?: (status: number) => void;
}

export function openLive(path: string, { headers = {}, onEvent, onRefused }: LiveOptions): () => void {
  let closed = false;
  let controller: AbortController | null = null;
  let wait = 1_000;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const again = () => {
    if (closed) return;
    // Spread by a fifth either way, so pages the server let go together do not all come back together.
    timer = setTimeout(() => { void connect(); }, wait * (0.8 + Math.random() * 0.4));
    wait = Math.min(wait * 2, 30_000);
  };

  async function connect() {
    controller = new AbortController();
    try {
      const res = await fetch(`/api/v1${path}`, {
        headers: { Accept: 'text/event-stream', 'API-PUBLIC-KEY': config.apiPublicKey, 'API-SECRET-KEY': config.apiSecretKey, ...headers },
        credentials: 'same-origin', cache: 'no-store', signal: controller.signal,
      });
      if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 410) { closed = true; onRefused?.(res.status); return; }
      if (!res.ok || !res.body) { again(); return; }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        wait = 1_000;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length && !closed) {
            try { onEvent(event, JSON.parse(data.join('\n'))); } catch { /* not JSON: not ours */ }
          }
        }
      }
      again();
    } catch {
      if (!closed) again();
    }
  }

  void connect();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}
