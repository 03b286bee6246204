// Serving the built SPA from the same process as the API: hashed assets from
// dist (gzip when the browser takes it), vehicle images from public/storage,
// and index.html for every other path, with the run-time config injected so
// one build serves any configuration. The page's <script> and stylesheet tags
// carry the Content-Security-Policy nonce of the response (securityHeaders.ts),
// so the inline config needs no 'unsafe-inline'. Source maps are never served.
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { cspNonce } from './securityHeaders';

export interface RuntimeConfig { apiPublicKey: string; apiSecretKey: string }

export function webApp(opts: { distDir: string; publicDir: string; runtime: RuntimeConfig }) {
  const web = new Hono();
  const tag = `<script>window.__APP_CONFIG__=${JSON.stringify(opts.runtime).replace(/</g, '\\u003c')}</script>`;
  // Where each response's nonce goes: split there once, joined with the nonce per response.
  const mark = `nonce-${randomUUID()}`;
  const withNonce = (html: string) => html
    .replace(/<script\b/gi, `<script nonce="${mark}"`)
    .replace(/<link\b(?=[^>]*\brel=["']?stylesheet\b)/gi, `<link nonce="${mark}"`);
  let cached: { mtimeMs: number; parts: string[] } | null = null;
  // Read again only when a rebuild replaced the file (`npm run dev`).
  const page = async (nonce: string) => {
    const file = path.join(opts.distDir, 'index.html');
    const { mtimeMs } = await stat(file);
    if (cached?.mtimeMs !== mtimeMs) {
      const html = await readFile(file, 'utf8');
      // The minified page has no </head>: the config goes just before the first script.
      const injected = /<script\b/i.test(html) ? html.replace(/<script\b/i, `${tag}<script`) : `${tag}${html}`;
      cached = { mtimeMs, parts: withNonce(injected).split(mark) };
    }
    return cached.parts.join(nonce);
  };
  const relative = (dir: string) => path.relative(process.cwd(), dir) || '.';
  web.use('/storage/*', serveStatic({
    root: relative(opts.publicDir),
    onFound: (_p, c) => { c.header('Cache-Control', 'public, max-age=86400'); },
  }));
  web.use('*', async (c, next) => {
    // Production builds have none, but a dev build's maps hold the full sources.
    if (/\.map$/i.test(c.req.path)) return c.text('Not found', 404);
    if (c.req.path === '/' || c.req.path.endsWith('.html')) return next();
    return serveStatic({
      root: relative(opts.distDir), precompressed: true,
      onFound: (_p, ctx) => { ctx.header('Cache-Control', 'public, max-age=31536000, immutable'); },
    })(c, next);
  });
  web.get('*', async (c) => {
    if (/\.[a-z0-9]{2,5}$/i.test(c.req.path) && !c.req.path.endsWith('.html')) return c.text('Not found', 404);
    c.header('Cache-Control', 'no-cache');
    return c.html(await page(cspNonce(c)));
  });
  return web;
}
