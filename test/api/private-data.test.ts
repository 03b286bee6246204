// The data folder is the server's alone (issue 24, item 7): folders 0700, files 0600, whatever the umask, and sent
// messages leave the outbox after OUTBOX_RETENTION_DAYS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDataDirPrivate, makeTreePrivate } from '../../src/server/privateData';
import { outboxTransport, removeOldOutboxFiles } from '../../src/server/mail/transport';
import { copyDemoImage, ensureDemoImage } from '../../src/server/operator/demoImage';
import { loadServerSecret } from '../../src/server/auth/secret';
import { loadConfig } from '../../src/server/config';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'private-data-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
/** Every path under dir with rights for group or others. */
function loose(dir: string): string[] {
  const found: string[] = [];
  const visit = (p: string) => {
    if (lstatSync(p).isSymbolicLink()) return;
    if (modeOf(p) & 0o077) found.push(`${path.relative(dir, p) || '.'} ${modeOf(p).toString(8)}`);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) visit(path.join(p, n));
  };
  visit(dir);
  return found;
}

describe('the data folder', () => {
  it('is made 0700 when it is new', () => {
    const dir = path.join(tmp, 'new', 'data');
    makeDataDirPrivate(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('made before this rule, is tightened with all it holds; links and what they point at are left alone', () => {
    const dir = path.join(tmp, 'old-data');
    mkdirSync(path.join(dir, 'outbox'), { recursive: true });
    writeFileSync(path.join(dir, 'outbox', 'reset.eml'), 'Your code is 123456');
    writeFileSync(path.join(dir, 'server-secret'), 'secret');
    const outside = path.join(tmp, 'outside.txt');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(dir, 'link'));
    for (const p of [dir, path.join(dir, 'outbox')]) chmodSync(p, 0o755);
    for (const p of [path.join(dir, 'outbox', 'reset.eml'), path.join(dir, 'server-secret')]) chmodSync(p, 0o644);
    makeDataDirPrivate(dir);
    expect(loose(dir)).toEqual([]);
    expect(modeOf(path.join(dir, 'outbox'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'outbox', 'reset.eml'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
  });

  it('keeps an owner\'s rights as they were (an executable stays executable, for its owner only)', () => {
    const dir = path.join(tmp, 'exec');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'tool'), 0o755);
    makeTreePrivate(dir);
    expect(modeOf(path.join(dir, 'tool'))).toBe(0o700);
  });

  it('holds a private copy of the prepared demo database', async () => {
    expect(await ensureDemoImage()).toBe(true);
    const dir = path.join(tmp, 'demo-copy', 'pglite');
    expect(copyDemoImage(dir)).toBe(true);
    expect(loose(dir)).toEqual([]);
  }, 60_000);

  it('holds a private server secret', () => {
    const dir = path.join(tmp, 'secret');
    loadServerSecret({ dataDir: dir });
    expect(modeOf(path.join(dir, 'server-secret'))).toBe(0o600);
  });
});

describe('the outbox', () => {
  const message = (key: string, createdAt = new Date()) => ({
    key, createdAt, from: 'bookings@example.com', to: 'grace@example.com', subject: 'Your password reset code', text: 'Code 123456', html: '<p>Code 123456</p>',
  });

  it('is a private folder of private files, whatever the umask', async () => {
    const outbox = path.join(tmp, 'outbox-modes', 'outbox');
    const before = process.umask(0o022);
    try {
      await outboxTransport(outbox, () => {}).send(message('a1b2c3d4e5f60718'));
    } finally {
      process.umask(before);
    }
    expect(modeOf(outbox)).toBe(0o700);
    const [file] = readdirSync(outbox);
    expect(modeOf(path.join(outbox, file))).toBe(0o600);
  });

  it(`loses sent messages after OUTBOX_RETENTION_DAYS (30 unless set), and files a crash left after an hour`, async () => {
    expect(loadConfig({}).outboxRetentionDays).toBe(30);
    expect(loadConfig({ OUTBOX_RETENTION_DAYS: '2' }).outboxRetentionDays).toBe(2);
    expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: '0' })).toThrow(/OUTBOX_RETENTION_DAYS must be a whole number of days/);
    const outbox = path.join(tmp, 'outbox-retention');
    mkdirSync(outbox);
    const now = Date.now();
    const day = 86_400_000;
    const files: Record<string, number> = {
      'old.eml': now - 31 * day, 'recent.eml': now - 29 * day, '.old.eml.partial': now - 2 * 3_600_000,
      '.writing.eml.partial': now - 1_000, 'notes.txt': now - 400 * day,
    };
    for (const [name, at] of Object.entries(files)) {
      writeFileSync(path.join(outbox, name), 'x');
      utimesSync(path.join(outbox, name), new Date(at), new Date(at));
    }
    expect(await removeOldOutboxFiles(outbox, 30, now)).toBe(2);
    expect(readdirSync(outbox).sort()).toEqual(['.writing.eml.partial', 'notes.txt', 'recent.eml']);
    expect(await removeOldOutboxFiles(outbox, 28, now)).toBe(1);
    expect(existsSync(path.join(outbox, 'recent.eml'))).toBe(false);
    expect(await removeOldOutboxFiles(path.join(tmp, 'no-outbox-yet'), 30, now)).toBe(0);
    // The texts' folder (issue 41): its .txt files, the same way.
    const sms = path.join(tmp, 'sms-retention');
    mkdirSync(sms);
    for (const [name, at] of Object.entries({ 'old.txt': now - 31 * day, 'recent.txt': now - 29 * day, 'old.eml': now - 31 * day })) {
      writeFileSync(path.join(sms, name), 'x');
      utimesSync(path.join(sms, name), new Date(at), new Date(at));
    }
    expect(await removeOldOutboxFiles(sms, 30, now, '.txt')).toBe(1);
    expect(readdirSync(sms).sort()).toEqual(['old.eml', 'recent.txt']);
  });
});
