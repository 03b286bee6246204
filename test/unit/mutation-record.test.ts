// Issue 28: the recorded mutation score stays true. CI refuses a mutated file whose content is not the one its score
// was measured on, a new mutated file without a score, and a total under 90% or a file under 80%.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { checkRecord, counts, mutatedBy, sha256 } from '../../scripts/mutation-score.mjs';

const entry = (text: string, score = 95) => ({ sha256: sha256(text), score, killed: 19, timeout: 0, survived: 1, noCoverage: 0 });
const record = {
  commit: '0123456789abcdef0123',
  total: { score: 92.5 },
  files: { 'src/a.ts': entry('a'), 'src/b.ts': entry('b') },
};
const now = { 'src/a.ts': sha256('a'), 'src/b.ts': sha256('b') };

describe('the recorded mutation score', () => {
  const problems = (r: object, files: Record<string, string>) => checkRecord(r, files).problems;

  it('passes when every mutated file is as measured and the scores are at their thresholds', () => {
    expect(checkRecord(record, now)).toEqual({ problems: [], below: [] });
    expect(checkRecord({ ...record, total: { score: 90 }, files: { ...record.files, 'src/b.ts': entry('b', 80) } }, now)).toEqual({ problems: [], below: [] });
  });

  it('fails for a mutated file changed since its score was recorded, naming it and the commit', () => {
    expect(problems({ ...record, files: { ...record.files, 'src/b.ts': { ...entry('b'), run: 'server-x' } }, runs: { 'server-x': { commit: '0123456789abcdef0123' } } },
      { ...now, 'src/b.ts': sha256('b changed') })).toEqual(['src/b.ts changed since its score was recorded (in run server-x at 0123456789ab)']);
  });

  it('fails for a mutated file with no score, and for a score of a file no longer mutated', () => {
    expect(problems(record, { ...now, 'src/c.ts': sha256('c') })).toEqual(['src/c.ts is mutated but has no recorded score']);
    expect(problems(record, { 'src/a.ts': sha256('a') })).toEqual(['src/b.ts has a recorded score but is no longer mutated']);
  });

  it('fails under 90% in total and under 80% for a file', () => {
    expect(problems({ ...record, total: { score: 89.99 } }, now)).toEqual(['the total score 89.99% is below 90%']);
    expect(problems({ ...record, files: { ...record.files, 'src/a.ts': entry('a', 79.99) } }, now))
      .toEqual(['src/a.ts scores 79.99%, below 80%']);
  });

  it('until a total first reaches 90%, fails only when the total falls below the best recorded, listing the files under 80%', () => {
    const climbing = { ...record, floor: 85.5, files: { ...record.files, 'src/a.ts': entry('a', 70) } };
    expect(checkRecord({ ...climbing, total: { score: 85.5 } }, now)).toEqual({ problems: [], below: ['src/a.ts scores 70%, below 80%'] });
    expect(problems({ ...climbing, total: { score: 85.49 } }, now)).toEqual(['the total score 85.49% is below 85.5% (the best recorded so far)']);
    expect(problems({ ...climbing, floor: 91, total: { score: 91 } }, now)).toEqual(['src/a.ts scores 70%, below 80%']);
    expect(problems({ ...record, total: undefined }, now)).toEqual(['the total score is missing']);
  });

  it('fails for a group measured with or without its static mutants when it now says otherwise', () => {
    const groups = [{ name: 'machines-x', ignoreStatic: false }, { name: 'server-x' }];
    const measured = (staticX: boolean, staticServer: boolean) => ({
      ...record, runs: { 'machines-x': { staticMutants: staticX }, 'server-x': { staticMutants: staticServer } },
    });
    expect(checkRecord(measured(true, false), now, undefined, groups).problems).toEqual([]);
    expect(checkRecord(measured(false, false), now, undefined, groups).problems)
      .toEqual(['run machines-x was measured without its static mutants; its group now includes them']);
    expect(checkRecord(measured(true, true), now, undefined, groups).problems)
      .toEqual(['run server-x was measured with its static mutants; its group now ignores them']);
  });

  it('counts timed-out mutants as detected and leaves ignored ones out of the score', () => {
    const mutants = ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored'].map((status) => ({ status }));
    expect(counts(mutants)).toEqual({ killed: 2, timeout: 1, survived: 1, noCoverage: 1, score: 60 });
  });

  it('expands a run\'s `dir/**/*.ts` to every such file below it, and keeps named files', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mutate-'));
    mkdirSync(path.join(root, 'src/x/deep'), { recursive: true });
    for (const f of ['src/x/a.ts', 'src/x/deep/b.ts', 'src/x/c.md']) writeFileSync(path.join(root, f), '');
    expect(mutatedBy(root, { mutate: ['src/x/**/*.ts', 'src/y.ts'] }).sort()).toEqual(['src/x/a.ts', 'src/x/deep/b.ts', 'src/y.ts']);
  });
});
