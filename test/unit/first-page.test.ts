// Decision 20: libphonenumber-js and its metadata (about 30 KiB gzip) stay off
// the first page. The home bundle is what src/web/main.tsx imports statically
// (lazy views come with import()); `npm run bench:web` measures it, these checks
// say which import would break it, without a build.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const STATIC_IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/**
 * The modules the first page loads and the packages they import. Re-exports inside src/domain are not followed:
 * src/domain/package.json says it has no side effects, so the bundler leaves out a re-exported module nobody uses.
 */
function firstPage(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const inDomain = file.startsWith(path.join(root, 'src/domain') + path.sep);
    for (const [, keyword, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (typeOnly || (keyword === 'export' && inDomain)) continue;
      if (!spec.startsWith('.')) { packages.add(spec); continue; }
      const target = resolve(file, spec);
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => path.relative(root, f)), packages: [...packages] };
}

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the first page', () => {
  it('imports neither the phone rule nor libphonenumber-js', () => {
    const { files, packages } = firstPage(path.join(root, 'src/web/main.tsx'));
    expect(files).toContain('src/domain/schemas.ts');
    expect(files).toContain('machines/bookingSteps.ts');
    expect(files.filter((f) => /src\/domain\/(phone|contactSchemas)\.ts$/.test(f))).toEqual([]);
    expect(packages.filter((p) => p.startsWith('libphonenumber-js'))).toEqual([]);
  });

  it('is not made to carry them by a lazy view: browser code takes the phone schemas from contactSchemas, not through schemas', () => {
    // A lazy view importing ContactForm through ./schemas (which the first page loads) would put it, and the phone
    // rule's metadata, on the first page.
    const through = /import\s+(?!type\b)\{([^}]*)\}\s*from\s*['"][./]*(?:src\/)?domain\/schemas['"]/g;
    const offenders = [...sources('src/web'), ...sources('machines')].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(through)]
        .filter(([, names]) => names.split(',').some((n) => /^\s*(ContactForm|QuoteRequest|UpdatePassengerRequest|QUERY_REASONS)\b/.test(n)))
        .map(() => path.relative(root, file)));
    expect(offenders, 'import these from src/domain/contactSchemas').toEqual([]);
  });
});

describe('the view each address opens (the catalogue names it, src/web/views.ts loads it, the server hints its files)', () => {
  const { files } = firstPage(path.join(root, 'src/web/main.tsx'));
  const registry = path.join(root, 'src/web/views.ts');
  const lazyImports = [...readFileSync(registry, 'utf8').matchAll(/(\w+): preloadable\(\(\) => import\(['"](\.[^'"]+)['"]\)/g)]
    .map(([, name, spec]) => ({ name, file: resolve(registry, spec) }));

  it('is named for every address but the home page, loaded with import() by its name, and not in the first page', async () => {
    const { SCREENS, viewOfPath } = await import('../../src/domain/screens');
    for (const [name, screen] of Object.entries(SCREENS)) {
      const view = viewOfPath(screen.path);
      if (name === 'home') { expect(view).toBeNull(); continue; }
      expect(view, name).toBeTruthy();
      const loaded = lazyImports.find((l) => l.name === view);
      expect(loaded, `${name}: src/web/views.ts loads ${view}`).toBeTruthy();
      const file = path.relative(root, loaded!.file!);
      // The build lists a view's files under the name of the module it loads (scripts/parcel-reporter-view-chunks.cjs).
      expect(path.basename(file, path.extname(file)), `${name}: ${file}`).toBe(view);
      expect(files, `${name}: ${file} is a chunk of its own`).not.toContain(file);
    }
    // Paths match without case, as the catalogue does; an unknown path names no view.
    expect(viewOfPath('/QUOTATIONVIEW')).toBe(SCREENS.quotation.view);
    expect(viewOfPath('/no-such-page')).toBeNull();
  });
});
