// How `npm start` says it will not start (issue 24): one line on stderr and exit code 1, never a stack trace. The
// reasons are the operator's to fix (a setting, a port, a folder another server has), not faults of the program.
import type { Server } from 'node:net';

/** A listening problem, told as what to change. */
export function listenFailure(err: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (err.code) {
    case 'EADDRINUSE': return `${where} is already in use by another program: stop it, or set PORT to another port.`;
    case 'EACCES': return `${where} needs privileges this user does not have: set PORT to a port above 1023.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `HOST "${host}" is not an address of this machine: leave HOST unset to listen on every interface, or set one of its addresses (127.0.0.1 for this machine only).`;
    default: return `could not listen on ${where}: ${err.message}`;
  }
}

/** Resolves once the server listens; rejects with what to change when it cannot. */
export function listening(server: Server, port: number, host: string | undefined): Promise<void> {
  if (server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => reject(new Error(listenFailure(err, port, host)));
    server.once('error', failed);
    server.once('listening', () => { server.off('error', failed); resolve(); });
  });
}

/** Where the server listens, in words: every interface, or the one address. */
export function listeningOn(address: ReturnType<Server['address']>): string {
  if (!address || typeof address === 'string') return String(address);
  const all = address.address === '::' || address.address === '0.0.0.0';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return all ? `every interface (${host}), port ${address.port}` : `${host}:${address.port}`;
}

/** The address to open in a browser: localhost when listening everywhere. */
export function siteUrl(port: number, host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** One line, the error's message alone. */
export function refusalLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return `Cannot start the booking site: ${message.replace(/\s*\n\s*/g, ' ')}`;
}
