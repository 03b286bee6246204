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

describe('the view each address opens (routes.ts `view`, hinted in the page by the server)', () => {
  const { files } = firstPage(path.join(root, 'src/web/main.tsx'));
  const app = readFileSync(path.join(root, 'src/web/App.tsx'), 'utf8');
  const lazyImports = [...app.matchAll(/import\(['"](\.[^'"]+)['"]\)/g)].map(([, spec]) => resolve(path.join(root, 'src/web/App.tsx'), spec));

  it('is named for every address but the home page, is a lazy import of App.tsx, and is not in the first page', async () => {
    const { ROUTES, viewOfPath } = await import('../../machines/routes');
    for (const [name, route] of Object.entries(ROUTES)) {
      const view = viewOfPath(route.path);
      if (name === 'home') { expect(view).toBeNull(); continue; }
      expect(view, name).toBeTruthy();
      expect(existsSync(path.join(root, view!)), `${name}: ${view}`).toBe(true);
      expect(lazyImports.map((f) => f && path.relative(root, f)), `${name}: App.tsx loads ${view} with import()`).toContain(view);
      expect(files, `${name}: ${view} is a chunk of its own`).not.toContain(view);
    }
    // Paths match without case, as the routes do; an unknown path names no view.
    expect(viewOfPath('/QUOTATIONVIEW')).toBe(ROUTES.quotation.view);
    expect(viewOfPath('/no-such-page')).toBeNull();
  });
});
