// The server the browser tests run: the site exactly as `npm start` serves it (src/server/server.ts), with the tests'
// admin door (./e2eAdmin.ts) added behind E2E_ADMIN_TOKEN. Only the tests load this file: the production entry,
// src/server/main.ts, has no way to open the door.
import { serveSite } from '../../src/server/server';
import { e2eAdminApp } from './e2eAdmin';

const token = process.env.E2E_ADMIN_TOKEN;
if (!token) {
  process.stderr.write('The browser tests\' server needs E2E_ADMIN_TOKEN.\n');
  process.exit(1);
}
console.log('Test admin calls are enabled (E2E_ADMIN_TOKEN is set).');
await serveSite({ testRoutes: (db) => e2eAdminApp(db, token) });
