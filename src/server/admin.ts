// `npm run admin -- <command>` (./operator/adminCommands.ts). With the embedded database the server's folder can be
// open in one process only: while the site runs, the command goes through the server's door
// (./operator/adminDoor.ts); otherwise it opens the database itself.
import { pathToFileURL } from 'node:url';
import { HELP, runAdmin, UsageError } from './operator/adminCommands';
import { readDoor, runThroughDoor } from './operator/adminDoor';

async function main() {
  const { loadConfig } = await import('./config');
  const { openRuntime } = await import('./runtime');
  const { claimDataDir, dataDirOwner } = await import('./dataLock');
  const { keepNewFilesPrivate } = await import('./privateData');
  const config = loadConfig();
  keepNewFilesPrivate();
  const argv = process.argv.slice(2);
  if (!argv.length || argv[0] === 'help') { console.log(HELP); return; }
  if (!config.databaseUrl) {
    const owner = dataDirOwner(config.dataDir);
    if (owner) {
      // The running server has the folder: it runs the command (issue 26).
      const door = readDoor(config.dataDir);
      if (door && door.pid === owner) {
        const done = await runThroughDoor(door, argv).catch((err: Error) => ({ ok: false as const, message: `The server did not answer: ${err.message}`, exitCode: 1 }));
        if (done.ok) console.log(done.output);
        else {
          console.error(done.message);
          process.exitCode = done.exitCode;
        }
        return;
      }
      console.error(`The booking server (process ${owner}) has ${config.dataDir} open, and the embedded database allows one process at a time;\n`
        + 'it has no admin door open (it is still starting, or an older version). Wait until it is ready and try again, or\n'
        + 'Stop the server, run the command, then start it again. (With DATABASE_URL set, admin commands work while it runs.)');
      process.exitCode = 1;
      return;
    }
  }
  const release = config.databaseUrl ? () => {} : claimDataDir(config.dataDir);
  const { db, log } = await openRuntime(config);
  log.forEach((l) => console.error(l));
  try {
    console.log(await runAdmin(db, argv, config.passwordHashCost));
  } catch (err) {
    console.error(err instanceof UsageError || (err as Error).name === 'TypeError' ? (err as Error).message : err);
    process.exitCode = 2;
  } finally {
    await db.close();
    release();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
