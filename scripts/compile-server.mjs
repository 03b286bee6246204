// The server as one compiled ES module, build/server/main.mjs, so `npm start` runs plain JavaScript instead of
// loading a TypeScript transpiler and compiling about 90 files on every start (decision 31). esbuild takes about
// 0.2 s; packages stay external and load from node_modules as before. A build is reused while none of the files it
// was compiled from has changed, and the project has not moved (each file's import.meta.url is written in as the
// source file's own address, so paths beside a source file, such as the migrations, keep pointing at the sources).
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'build/server');
const SERVER_ENTRY = path.join(ROOT, 'src/server/main.ts');
/** The browser tests' server (the site plus their admin door): compiled only when the tests ask for it. */
const TEST_SERVER_ENTRY = path.join(ROOT, 'test/e2e/server.ts');
const SELF = fileURLToPath(import.meta.url);
const entryIn = (outDir) => path.join(outDir, 'main.mjs');
/** Where the browser tests' server is compiled to (compileServer with `{ withTests: true }`). */
export const testEntryIn = (outDir = OUT_DIR) => path.join(outDir, 'e2e-server.mjs');
const manifestIn = (outDir) => path.join(outDir, 'manifest.json');

/**
 * Whether build/server/main.mjs (and, withTests, the tests' server) is missing or older than a file it was built from
 * (or than this script).
 */
export function compiledServerIsStale(outDir = OUT_DIR, { withTests = false } = {}) {
  try {
    const manifest = JSON.parse(readFileSync(manifestIn(outDir), 'utf8'));
    if (manifest.root !== ROOT || (withTests && !manifest.withTests)) return true;
    const built = statSync(entryIn(outDir)).mtimeMs;
    return [SELF, ...manifest.inputs.map((f) => path.join(ROOT, f))].some((f) => !existsSync(f) || statSync(f).mtimeMs > built);
  } catch {
    return true; // no build yet, or an unreadable manifest
  }
}

// import.meta.url becomes the address of the file it is written in, as it is when the sources run directly.
const sourceAddresses = {
  name: 'source-addresses',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * Compiles the server. Modules loaded only on demand (PostgreSQL's client, the Stripe SDK, SMTP) become chunks of
 * their own, so a start loads none of them unless it needs them. `withTests` compiles the browser tests' server
 * (test/e2e/server.ts) beside it; the production entry never loads it. Chunk names carry a
 * hash of their content and each file is written aside and renamed, the entry last: a server starting meanwhile
 * loads either the old build or the new one, never half of one. Chunks no build has used for a day are removed.
 */
export async function compileServer(outDir = OUT_DIR, { withTests = false } = {}) {
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: { main: SERVER_ENTRY, ...(withTests ? { 'e2e-server': TEST_SERVER_ENTRY } : {}) }, outdir: outDir, entryNames: '[name]', chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' }, bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node20',
    packages: 'external', metafile: true, write: false, logLevel: 'warning', plugins: [sourceAddresses],
    banner: { js: '// Compiled from src/server by scripts/compile-server.mjs: edit the sources, not this file.' },
  });
  const entry = entryIn(outDir);
  const files = [...result.outputFiles].sort((a, b) => (a.path === entry) - (b.path === entry));
  for (const file of files) writeAtomically(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs).map((f) => path.relative(ROOT, path.resolve(ROOT, f)));
  writeAtomically(manifestIn(outDir), JSON.stringify({ root: ROOT, withTests, inputs }, null, 1));
  removeOldChunks(path.join(outDir, 'chunks'), new Set(files.map((f) => f.path)));
  return entry;
}

function writeAtomically(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, file);
}

function removeOldChunks(dir, current) {
  if (!existsSync(dir)) return;
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!current.has(file) && statSync(file).mtimeMs < dayAgo) rmSync(file, { force: true });
  }
}

/** The compiled server, compiled first when it is missing or stale. */
export async function compiledServer() {
  return compiledServerIsStale() ? compileServer() : entryIn(OUT_DIR);
}
