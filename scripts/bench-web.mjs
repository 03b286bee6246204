// `npm run bench:web`: a production build, then the gzip size of the JS and CSS
// the home page loads before anything else (later steps are separate lazy
// chunks, listed apart). Writes bench/results/web.json. Target: home JS <= 120 KiB.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const dist = path.join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules/parcel/lib/bin.js'), 'build', 'public/index.html', '--dist-dir', dist,
  '--public-url', '/', '--no-autoinstall', '--no-cache'], { cwd: root, stdio: 'ignore', env: { ...process.env, NODE_ENV: 'production' } });

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const referenced = [...html.matchAll(/(?:src|href)=["']?\/([^"'\s>]+\.(?:js|css))/g)].map((m) => m[1]);
const gz = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kib = (n) => Math.round((n / 1024) * 10) / 10;
const home = { js: 0, css: 0 };
for (const f of referenced) home[f.endsWith('.js') ? 'js' : 'css'] += gz(f);
const lazy = readdirSync(dist).filter((f) => f.endsWith('.js') && !referenced.includes(f))
  .map((f) => ({ file: f, gzip_kib: kib(gz(f)) }));

const report = { date: new Date().toISOString(), home_js_gzip_kib: kib(home.js), home_css_gzip_kib: kib(home.css), target_js_kib: 120, lazy_chunks: lazy };
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/web.json'), JSON.stringify(report, null, 2) + '\n');
console.log(`Home page: JS ${report.home_js_gzip_kib} KiB gzip (target 120), CSS ${report.home_css_gzip_kib} KiB gzip`);
for (const c of lazy) console.log(`  lazy ${c.file}: ${c.gzip_kib} KiB gzip`);
