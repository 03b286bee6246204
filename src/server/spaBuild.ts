// `npm start` builds the SPA when dist is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

// This file too: a change to the build's flags rebuilds.
const SOURCES = ['src/web', 'src/domain', 'machines', 'public/index.html', '.parcelrc', 'scripts/parcel-reporter-view-chunks.cjs',
  'scripts/parcel-optimizer-compile-hints.cjs', 'package.json',
  'src/server/spaBuild.ts'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), st.mtimeMs);
}

export function spaIsStale(root: string, distDir: string): boolean {
  const built = path.join(distDir, 'index.html');
  // A build without the list of each view's files (older than its reporter) is stale too.
  if (!existsSync(built) || !existsSync(path.join(distDir, 'view-chunks.json'))) return true;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  return sources > statSync(built).mtimeMs;
}

export function buildSpa(root: string, distDir: string): void {
  const started = Date.now();
  console.log('Building the website...');
  rmSync(distDir, { recursive: true, force: true });
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/parcel/lib/bin.js'), 'build', 'public/index.html', '--dist-dir', distDir, '--public-url', '/', '--no-autoinstall',
      // No source maps: they would publish the full sources.
      '--no-source-maps'],
    // Always a production build, whatever NODE_ENV the caller runs with (test runners set it to "test").
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error('The website build failed (see above).');
  console.log(`Website built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
