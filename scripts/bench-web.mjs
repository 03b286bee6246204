// `npm run bench:web` (issue 12, decision 30): the website against its floor, measured side by side in one run.
//
// The floor (bench/floor-web) is a page with only the design card's libraries (react, react-dom, xstate,
// @xstate/react, wouter, final-form, react-final-form, superstruct, ofetch), each doing one small real thing, built
// the same way (this project's .parcelrc and browserslist, a production build). Both are built into a temporary
// folder, never into dist/ (servers of other runs serve that one).
//
// 1. Size: the gzip (level 9) of the JS and CSS the home page loads before anything else (what index.html names,
//    modulepreloads included); brotli beside it, and every lazy chunk listed apart.
// 2. Lighthouse 12.8 (mobile, its default simulated throttling) on / and /quotationview of the real server (started
//    as `npm start` starts it, on a temporary data folder and a spare port, serving the temporary build), and on the
//    floor served by a tiny static server with the same compression. /quotationview is opened as a returning
//    visitor: the booking form is filled in a browser first (the prices it brings are in browser storage), and
//    Lighthouse keeps that storage. RUNS runs each (default 3, BENCH_WEB_RUNS), the median taken.
//
// Writes bench/results/web.json and prints the table. Run it alone: `flock /tmp/heavy.lock npm run bench:web`.
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { register } from 'tsx/esm/api';

register();
const root = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const work = mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const kib = (n) => Math.round((n / 1024) * 10) / 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function build(entry, out) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/parcel/lib/bin.js'), 'build', entry, '--dist-dir', out,
    '--public-url', '/', '--no-autoinstall', '--no-source-maps', '--cache-dir', path.join(work, 'cache')],
  { cwd: root, stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } });
}

/** What the first page loads (scripts, styles, module preloads in index.html) and every other chunk. */
function sizes(dir) {
  const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const first = [...new Set([...html.matchAll(/(?:src|href)=["']?\/([^"'\s>]+\.(?:js|css))/g)].map((m) => m[1]))];
  const gz = (f) => gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length;
  const br = (f) => (existsSync(path.join(dir, `${f}.br`)) ? statSync(path.join(dir, `${f}.br`)).size : null);
  const sum = (files, fn) => files.reduce((n, f) => n + (fn(f) ?? 0), 0);
  const js = first.filter((f) => f.endsWith('.js'));
  const css = first.filter((f) => f.endsWith('.css'));
  const lazy = readdirSync(dir).filter((f) => /\.(js|css)$/.test(f) && !first.includes(f)).sort()
    .map((f) => ({ file: f, gzip_kib: kib(gz(f)) }));
  return {
    files: first, js_gzip_kib: kib(sum(js, gz)), css_gzip_kib: kib(sum(css, gz)), total_gzip_kib: kib(sum(first, gz)),
    total_brotli_kib: kib(sum(first, br)), lazy,
  };
}

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/** The real server, as `npm start` runs it, serving the build in `dir`. */
async function startSite(dir) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, WEB_DIST_DIR: dir, SKIP_SPA_BUILD: '1', NODE_ENV: 'production', CARD_GATEWAY: 'test' },
  });
  let log = '';
  await new Promise((resolve, reject) => {
    const on = (d) => { log += d; if (log.includes('Booking site ready')) resolve(); };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('exit', (code) => reject(new Error(`The server stopped (${code}):\n${log}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

/** The floor's static server: the same compression as the site's (Parcel's .br, else .gz, by Accept-Encoding). */
async function startFloor(dir) {
  const port = await freePort();
  const types = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8' };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const name = url.pathname === '/' || !path.extname(url.pathname) ? 'index.html' : path.basename(url.pathname);
    const file = path.join(dir, name);
    if (!existsSync(file)) { res.writeHead(404).end(); return; }
    const accepts = (req.headers['accept-encoding'] ?? '').split(',').map((s) => s.trim().split(';')[0]);
    const enc = accepts.includes('br') && existsSync(`${file}.br`) ? 'br' : accepts.includes('gzip') && existsSync(`${file}.gz`) ? 'gzip' : null;
    res.writeHead(200, {
      'Content-Type': types[path.extname(name)] ?? 'application/octet-stream', Vary: 'Accept-Encoding',
      'Cache-Control': name === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...(enc ? { 'Content-Encoding': enc } : {}),
    });
    createReadStream(enc ? `${file}.${enc === 'br' ? 'br' : 'gz'}` : file).pipe(res);
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) };
}

const { resolveChromium } = await import('../test/e2e/chromium.ts');
const chrome = await resolveChromium();
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Browser storage after a visitor asked for prices on the site's home page: what /quotationview shows. */
async function storageAfterPricing(site) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chrome.executablePath, env: { ...process.env, ...chrome.env }, headless: true, args: ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(site.url);
    for (const [label, typed] of [['Pickup address', 'Paddington'], ['Drop-off address', 'Canary Wharf']]) {
      await page.getByRole('combobox', { name: label }).fill(typed);
      await page.getByRole('listbox').getByRole('option').first().click();
    }
    const { ukToday } = await import('../src/domain/ukTime.ts');
    const [y, m, d] = ukToday().split('-').map(Number);
    await page.getByLabel('Pickup date').fill(new Date(Date.UTC(y, m - 1, d + 3)).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.getByRole('button', { name: 'Book Now' }).first().waitFor();
    return await page.evaluate(() => ({ ...localStorage }));
  } finally {
    await browser.close();
  }
}

/** One Lighthouse run (mobile): scores 0-100, TBT and LCP in ms. `storage` is written into the origin first. */
async function lighthouseOnce(url, storage) {
  const { default: lighthouse } = await import('lighthouse');
  const puppeteer = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    executablePath: chrome.executablePath, env: { ...process.env, ...chrome.env }, headless: true, args: ARGS,
  });
  try {
    const page = await browser.newPage();
    if (storage) {
      const origin = new URL(url).origin;
      await page.goto(`${origin}/storage/vehicles/saloon.svg`);
      await page.evaluate((entries) => { for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v); }, storage);
    }
    const result = await lighthouse(url, {
      logLevel: 'error', output: 'json', disableStorageReset: Boolean(storage),
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    }, undefined, page);
    const { categories, audits } = result.lhr;
    const failing = Object.values(audits).filter((a) => a.score !== null && a.score < 1 && ['binary', 'numeric'].includes(a.scoreDisplayMode))
      .map((a) => a.id);
    return {
      performance: Math.round(categories.performance.score * 100),
      accessibility: Math.round(categories.accessibility.score * 100),
      best_practices: Math.round(categories['best-practices'].score * 100),
      tbt_ms: Math.round(audits['total-blocking-time'].numericValue),
      lcp_ms: Math.round(audits['largest-contentful-paint'].numericValue),
      fcp_ms: Math.round(audits['first-contentful-paint'].numericValue),
      final_url: result.lhr.finalDisplayedUrl,
      lcp_element: lcpElement(audits),
      failing,
    };
  } finally {
    await browser.close();
  }
}

/** What Lighthouse took as the largest contentful paint (a selector and a snippet), for the report. */
function lcpElement(audits) {
  const items = audits['largest-contentful-paint-element']?.details?.items ?? [];
  const node = items.flatMap((i) => i.items ?? [i]).find((i) => i.node)?.node;
  return node ? `${node.selector ?? ''} ${node.snippet ?? ''}`.trim() : null;
}

async function lighthouseMedian(url, storage) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await lighthouseOnce(url, storage));
  const pick = (k) => median(runs.map((r) => r[k]));
  return {
    performance: pick('performance'), accessibility: pick('accessibility'), best_practices: pick('best_practices'),
    tbt_ms: pick('tbt_ms'), lcp_ms: pick('lcp_ms'), fcp_ms: pick('fcp_ms'),
    final_url: runs[0].final_url, failing_audits: [...new Set(runs.flatMap((r) => r.failing))], runs,
  };
}

/** Content-Encoding of the first page's main script, asked with and without br. */
async function encodings(url, file) {
  const get = async (accept) => (await fetch(`${url}/${file}`, { headers: { 'Accept-Encoding': accept } })).headers.get('content-encoding');
  const page = async (accept) => (await fetch(url, { headers: { 'Accept-Encoding': accept } })).headers.get('content-encoding');
  return { asset_br: await get('gzip, deflate, br'), asset_gzip_only: await get('gzip, deflate'), page_br: await page('gzip, deflate, br'), page_gzip_only: await page('gzip') };
}

const siteDir = path.join(work, 'site');
const floorDir = path.join(work, 'floor');
build('public/index.html', siteDir);
build('bench/floor-web/index.html', floorDir);
const size = { site: sizes(siteDir), floor: sizes(floorDir) };

const site = await startSite(siteDir);
const floor = await startFloor(floorDir);
let lh;
let served;
let quotationStorage;
try {
  served = await encodings(site.url, size.site.files.find((f) => f.endsWith('.js')));
  quotationStorage = await storageAfterPricing(site);
  lh = {
    floor: await lighthouseMedian(floor.url),
    home: await lighthouseMedian(`${site.url}/`),
    quotation: await lighthouseMedian(`${site.url}/quotationview`, quotationStorage),
  };
} finally {
  await site.stop();
  await floor.stop();
}

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const rows = [];
const row = (measure, now, fl, r, target, met) => rows.push({ measure, now, floor: fl, ratio: r, target, met });
row('home JS+CSS gzip (KiB)', size.site.total_gzip_kib, size.floor.total_gzip_kib, ratio(size.site.total_gzip_kib, size.floor.total_gzip_kib), '<= 1.05x', size.site.total_gzip_kib <= 1.05 * size.floor.total_gzip_kib);
row('home JS+CSS brotli (KiB)', size.site.total_brotli_kib, size.floor.total_brotli_kib, ratio(size.site.total_brotli_kib, size.floor.total_brotli_kib), 'report', null);
row('brotli served (asset, page)', `${served.asset_br}, ${served.page_br}`, 'br', null, 'br; gzip when no br', served.asset_br === 'br' && served.page_br === 'br' && served.asset_gzip_only === 'gzip' && served.page_gzip_only === 'gzip');
for (const [name, r] of [['/', lh.home], ['/quotationview', lh.quotation]]) {
  row(`${name} performance`, r.performance, lh.floor.performance, null, '>= 98', r.performance >= 98);
  row(`${name} accessibility`, r.accessibility, lh.floor.accessibility, null, '100', r.accessibility === 100);
  row(`${name} best practices`, r.best_practices, lh.floor.best_practices, null, '100', r.best_practices === 100);
  // A floor of 0 ms (no task over 50 ms) has no ratio: only 0 ms meets it.
  row(`${name} TBT (ms)`, r.tbt_ms, lh.floor.tbt_ms, lh.floor.tbt_ms > 0 ? ratio(r.tbt_ms, lh.floor.tbt_ms) : null, '<= 1.3x', r.tbt_ms <= 1.3 * lh.floor.tbt_ms);
  row(`${name} LCP (ms)`, r.lcp_ms, lh.floor.lcp_ms, ratio(r.lcp_ms, lh.floor.lcp_ms), '<= 1.15x', r.lcp_ms <= 1.15 * lh.floor.lcp_ms);
}

const report = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`.trim(),
  chromium: `${chrome.source} (${chrome.executablePath})`,
  lighthouse_runs_per_page: RUNS,
  quotationview: 'opened as a returning visitor: the home form was filled and priced in a browser first, and Lighthouse keeps that storage',
  table: rows,
  size,
  served_encodings: served,
  lighthouse: lh,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/web.json'), JSON.stringify(report, null, 2) + '\n');

const fmt = (v) => (v === null || v === undefined ? '' : String(v));
const widths = ['measure', 'now', 'floor', 'ratio', 'target', 'met'].map((k) => Math.max(k.length, ...rows.map((r) => fmt(r[k] === null && k === 'met' ? 'n/a' : r[k]).length)));
const line = (cells) => `| ${cells.map((c, i) => fmt(c).padEnd(widths[i])).join(' | ')} |`;
console.log(line(['measure', 'now', 'floor', 'ratio', 'target', 'met']));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line([r.measure, r.now, r.floor, r.ratio, r.target, r.met === null ? 'n/a' : r.met ? 'yes' : 'NO']));
for (const [name, r] of Object.entries(lh)) if (r.failing_audits.length) console.log(`${name}: audits not passed: ${r.failing_audits.join(', ')}`);
console.log(`Lazy chunks of the site: ${size.site.lazy.length}; written to bench/results/web.json`);
