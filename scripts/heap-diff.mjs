// `node scripts/heap-diff.mjs A.heapsnapshot B.heapsnapshot [--top 25]`: what the live heap gained from snapshot A
// to snapshot B (V8's .heapsnapshot files, e.g. from `npm run bench:live -- --heap-snapshots DIR`), by kind of object:
// objects and closures by their constructor's name, the rest by V8's type (strings, code, arrays...). Prints each
// snapshot's total and the kinds whose bytes grew or shrank most.
//
// A snapshot is read without parsing it whole as JSON (a large heap's file is longer than a string may be): the head
// (`meta`) is parsed, the `nodes` numbers are scanned from the bytes, and the `strings` array is parsed on its own.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
if (positionals.length !== 2) {
  console.error('Usage: node scripts/heap-diff.mjs A.heapsnapshot B.heapsnapshot [--top 25]');
  process.exit(2);
}

/** The section of `buf` that starts after `marker`, scanned for unsigned integers up to the closing bracket. */
function numbersAfter(buf, marker, count) {
  const at = buf.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the snapshot`);
  const out = new Float64Array(count);
  let n = 0;
  let value = 0;
  let inNumber = false;
  for (let i = at + marker.length; i < buf.length; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) { value = value * 10 + (c - 48); inNumber = true; continue; }
    if (inNumber) { out[n++] = value; value = 0; inNumber = false; }
    if (c === 93) break; // ]
  }
  if (n !== count) throw new Error(`${marker} held ${n} numbers, not ${count}`);
  return out;
}

/** Bytes and counts of the snapshot's objects by kind. */
function summarise(file) {
  const buf = readFileSync(file);
  const headEnd = buf.indexOf('"nodes":[');
  const head = JSON.parse(`${buf.subarray(0, headEnd).toString('utf8').replace(/,\s*$/, '')}}`);
  const { meta, node_count: nodeCount } = head.snapshot;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const nodes = numbersAfter(buf, '"nodes":[', nodeCount * fields.length);
  const stringsAt = buf.indexOf('"strings":[');
  const strings = JSON.parse(buf.subarray(stringsAt + '"strings":'.length, buf.lastIndexOf(']') + 1).toString('utf8'));
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const kinds = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    const kind = type === 'object' || type === 'closure' || type === 'native' ? `${type} ${strings[nodes[i + nameAt]]}` : `(${type})`;
    const k = kinds.get(kind) ?? { bytes: 0, count: 0 };
    k.bytes += size;
    k.count += 1;
    kinds.set(kind, k);
    total += size;
  }
  return { total, nodes: nodeCount, kinds };
}

const mib = (bytes) => (bytes / 2 ** 20).toFixed(2);
const [a, b] = positionals.map(summarise);
console.log(`A ${positionals[0]}: ${mib(a.total)} MiB in ${a.nodes} objects`);
console.log(`B ${positionals[1]}: ${mib(b.total)} MiB in ${b.nodes} objects (${b.total >= a.total ? '+' : ''}${mib(b.total - a.total)} MiB)`);
const rows = [...new Set([...a.kinds.keys(), ...b.kinds.keys()])].map((kind) => {
  const x = a.kinds.get(kind) ?? { bytes: 0, count: 0 };
  const y = b.kinds.get(kind) ?? { bytes: 0, count: 0 };
  return { kind, bytes: y.bytes - x.bytes, count: y.count - x.count, now: y.bytes };
}).filter((r) => r.bytes !== 0 || r.count !== 0);
const top = Number(opts.top);
const table = (title, list) => {
  console.log(`\n${title}\n| kind | bytes | objects | MiB in B |\n|---|---|---|---|`);
  for (const r of list) console.log(`| ${r.kind.replace(/\|/g, '\\|').slice(0, 80)} | ${r.bytes >= 0 ? '+' : ''}${r.bytes} | ${r.count >= 0 ? '+' : ''}${r.count} | ${mib(r.now)} |`);
};
table('Grew most:', [...rows].sort((x, y) => y.bytes - x.bytes).slice(0, top).filter((r) => r.bytes > 0));
table('Shrank most:', [...rows].sort((x, y) => x.bytes - y.bytes).slice(0, Math.min(top, 10)).filter((r) => r.bytes < 0));
