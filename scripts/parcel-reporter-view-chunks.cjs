// A Parcel reporter (.parcelrc): after each successful build it writes view-chunks.json beside index.html. For every
// lazily imported module of the project (a view's import() in src/web/views.ts, a rule loaded when first used) it lists
// the files that import() loads, keyed by the module's name, for a view its name in the screen catalogue
// (src/domain/screens.ts):
//   { "QuotationView": ["/QuotationView.c0cb7471.js", "/priceFiltering.8155d72e.js"] }
// The server (src/server/http/web.ts) adds them to the page as preload hints when that view is the one the address
// opens, so a reloaded /quotationview fetches its view beside the main script instead of after it (decision 32).
const { Reporter } = require('@parcel/plugin');
const { mkdir, rename, writeFile } = require('node:fs/promises');
const path = require('node:path');

module.exports = new Reporter({
  async report({ event, options }) {
    if (event.type !== 'buildSuccess') return;
    const graph = event.bundleGraph;
    const byDist = new Map();
    for (const bundle of graph.getBundles()) {
      const entry = bundle.getMainEntry();
      if (!entry || bundle.type !== 'js') continue;
      for (const group of graph.getBundleGroupsContainingBundle(bundle)) {
        // Only the group this module starts (its import()), not groups it is merely shared into.
        if (group.entryAssetId !== entry.id) continue;
        const distDir = bundle.target.distDir;
        const files = graph.getBundlesInBundleGroup(group)
          .filter((b) => b.type === 'js' || b.type === 'css')
          .map((b) => `${bundle.target.publicUrl.replace(/\/$/, '')}/${path.relative(distDir, b.filePath).split(path.sep).join('/')}`);
        const from = path.relative(options.projectRoot, entry.filePath).split(path.sep).join('/');
        if (from.startsWith('node_modules/') || from.includes('/node_modules/')) continue;
        const key = path.basename(from, path.extname(from));
        if (!byDist.has(distDir)) byDist.set(distDir, {});
        byDist.get(distDir)[key] = [...new Set(files)].sort();
      }
    }
    for (const [distDir, manifest] of byDist) {
      await mkdir(distDir, { recursive: true });
      // Written aside and renamed: a running server never reads half a file.
      const file = path.join(distDir, 'view-chunks.json');
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
      await rename(tmp, file);
    }
  },
});
