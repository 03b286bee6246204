// `npm run dev`: Parcel rebuilds the website on change and the server restarts on change.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['parcel', 'watch', 'public/index.html', '--dist-dir', 'dist', '--public-url', '/', '--no-hmr'], { stdio: 'inherit' }),
  spawn('npx', ['tsx', 'watch', '--include', 'src/server/db/migrations', 'src/server/main.ts'], {
    stdio: 'inherit', env: { ...process.env, SKIP_SPA_BUILD: '1' },
  }),
];
const stop = () => { for (const c of children) c.kill('SIGTERM'); process.exit(0); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
