// Serving the built SPA from the same process as the API: hashed assets from
// dist (brotli or gzip files Parcel made, whichever the browser takes; brotli
// first), vehicle images from public/storage, and index.html for every other
// path, with the run-time config and the operator's public settings injected so
// one build serves any configuration and the first render does not wait for
// GET /setting (decision 30). The page's <script> and stylesheet tags carry the
// Content-Security-Policy nonce of the response (securityHeaders.ts), so the
// inline config needs no 'unsafe-inline'. Source maps are never served.
// A page for a later step's address (/quotationview after a reload) also names the files of that step's view
// (dist/view-chunks.json, written by the build), so the browser fetches them beside the main script.
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { cspNonce } from './securityHeaders';
import { viewOfPath } from '../../domain/screens';

export interface RuntimeConfig { apiPublicKey: string; apiSecretKey: string }

export interface WebOptions {
  distDir: string;
  publicDir: string;
  runtime: RuntimeConfig;
  /**
   * The operator's public settings exactly as GET /api/v1/setting answers them, read for every page so a change
   * shows on the next load. A failure (or no function) leaves them out: the page then fetches them itself.
   */
  settings?: () => Promise<unknown>;
}

/** The encodings the browser takes, from its Accept-Encoding (a q=0 refuses one). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function webApp(opts: WebOptions) {
  const web = new Hono();
  // Where each response's nonce and settings go: split there once, joined per response.
  const mark = `nonce-${randomUUID()}`;
  const settingsMark = `settings-${randomUUID()}`;
  const tag = `<script>window.__APP_CONFIG__=${scriptJson(opts.runtime)};window.__APP_SETTINGS__=${settingsMark}</script>`;
  const withNonce = (html: string) => html
    .replace(/<script\b/gi, `<script nonce="${mark}"`)
    .replace(/<link\b(?=[^>]*\brel=["']?(?:stylesheet|modulepreload)\b)/gi, `<link nonce="${mark}"`);
  let cached: { version: string; html: string; chunks: ViewChunks; pages: Map<string | null, string[][]> } | null = null;
  // Read again only when a rebuild replaced either file (`npm run dev`).
  const page = async (requestPath: string, nonce: string, settings: string) => {
    const file = path.join(opts.distDir, 'index.html');
    const chunksFile = path.join(opts.distDir, 'view-chunks.json');
    const version = `${(await stat(file)).mtimeMs} ${(await stat(chunksFile).catch(() => null))?.mtimeMs}`;
    if (cached?.version !== version) {
      cached = { version, html: await readFile(file, 'utf8'), chunks: await readViewChunks(chunksFile), pages: new Map() };
    }
    const view = viewOfPath(requestPath);
    let parts = cached.pages.get(view);
    if (!parts) {
      const head = `${tag}${viewHints(cached.chunks, view)}`;
      // The minified page has no </head>: the config goes just before the first script.
      const injected = /<script\b/i.test(cached.html) ? cached.html.replace(/<script\b/i, `${head}<script`) : `${head}${cached.html}`;
      parts = withNonce(injected).split(settingsMark).map((p) => p.split(mark));
      cached.pages.set(view, parts);
    }
    return parts.map((p) => p.join(nonce)).join(settings);
  };
  const publicSettings = async (): Promise<string> => {
    if (!opts.settings) return 'null';
    try {
      return scriptJson(await opts.settings());
    } catch (err) {
      console.error('Settings left out of the page (it will fetch them):', err);
      return 'null';
    }
  };
  const relative = (dir: string) => path.relative(process.cwd(), dir) || '.';
  web.use('/storage/*', serveStatic({
    root: relative(opts.publicDir),
    onFound: (_p, c) => { c.header('Cache-Control', 'public, max-age=86400'); },
  }));
  const assets = serveStatic({
    root: relative(opts.distDir), precompressed: true,
    onFound: (_p, ctx) => { ctx.header('Cache-Control', 'public, max-age=31536000, immutable'); },
  });
  web.use('*', async (c, next) => {
    // Production builds have none, but a dev build's maps hold the full sources.
    if (/\.map$/i.test(c.req.path)) return c.text('Not found', 404);
    if (c.req.path === '/' || c.req.path.endsWith('.html')) return next();
    // hono's serveStatic matches Accept-Encoding tokens exactly: a `br;q=1` is read here first, as `br`.
    const accepted = acceptedEncodings(c.req.header('Accept-Encoding'));
    if (accepted.size) c.req.raw.headers.set('Accept-Encoding', [...accepted].join(', '));
    return assets(c, next);
  });
  web.get('*', async (c) => {
    if (/\.[a-z0-9]{2,5}$/i.test(c.req.path) && !c.req.path.endsWith('.html')) return c.text('Not found', 404);
    c.header('Cache-Control', 'no-cache');
    return compressedHtml(c, await page(c.req.path, cspNonce(c), await publicSettings()));
  });
  return web;
}

/** dist/view-chunks.json: for each lazily loaded view, by name, the files its import() loads. */
type ViewChunks = Record<string, string[]>;

/** The build's list of each view's files; none (no hints) when the build did not write one or it cannot be read. */
async function readViewChunks(file: string): Promise<ViewChunks> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed as ViewChunks : {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') console.error('dist/view-chunks.json unreadable; pages go without view hints:', err);
    return {};
  }
}

/**
 * The files of the view an address opens: scripts as module preloads, stylesheets as stylesheets. The view is that
 * page's first render, so its styles are fetched beside the main ones, not after its script asks for them (Parcel's
 * loader finds the link already in the page and does not wait for it again).
 */
export function viewHints(chunks: ViewChunks, view: string | null): string {
  const files = (view && Array.isArray(chunks[view]) ? chunks[view] : []).filter((f) => typeof f === 'string' && /^\/[\w./-]+$/.test(f));
  return files.map((f) => (f.endsWith('.css') ? `<link rel="stylesheet" href="${f}">` : f.endsWith('.js') ? `<link rel="modulepreload" href="${f}">` : '')).join('');
}

/** The page compressed as the browser asks (brotli first): a few kB, compressed per response as it differs per nonce. */
function compressedHtml(c: Context, html: string) {
  const accepted = acceptedEncodings(c.req.header('Accept-Encoding'));
  c.header('Vary', 'Accept-Encoding', { append: true });
  c.header('Content-Type', 'text/html; charset=UTF-8');
  if (accepted.has('br')) {
    c.header('Content-Encoding', 'br');
    return c.body(new Uint8Array(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } })));
  }
  if (accepted.has('gzip')) {
    c.header('Content-Encoding', 'gzip');
    return c.body(new Uint8Array(gzipSync(html, { level: 6 })));
  }
  return c.body(html);
}
