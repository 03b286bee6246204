// `npm start`: the site's server (./server.ts), as it runs in production.
import { serveSite } from './server';

await serveSite();
