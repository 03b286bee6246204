// A Parcel optimizer (.parcelrc, production builds): the scripts an HTML page loads itself (for the site,
// src/web/main.tsx's bundle; the bench floor's likewise) start with V8's explicit compile hint
// `//# allFunctionsCalledOnLoad`. Nearly every function in that bundle runs as the page starts (React, the
// machines, the first view), so Chromium compiles them on a background thread while the file streams in, instead of
// on the main thread when each is first called: the main script's evaluation was a 13-19 ms task, over Lighthouse's
// long-task line at its 4x CPU slowdown (decision 32). Other browsers read it as a comment. Lazy chunks stay lazily
// compiled: most of their functions never run.
const { Optimizer } = require('@parcel/plugin');
const { blobToString } = require('@parcel/utils');

const HINT = '//# allFunctionsCalledOnLoad\n';

module.exports = new Optimizer({
  async optimize({ bundle, bundleGraph, contents, map }) {
    // A page's own script has no parent bundle: chunks are loaded by a script, stylesheets are not scripts.
    if (bundle.type !== 'js' || bundleGraph.getParentBundles(bundle).length > 0) return { contents, map };
    const code = await blobToString(contents);
    if (code.startsWith(HINT)) return { contents: code, map };
    // Every mapping moves one line down, below the hint.
    if (map) map.offsetLines(1, 1);
    return { contents: HINT + code, map };
  },
});
