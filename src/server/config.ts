// Configuration: environment variables, each with a safe local default (README lists them).
import path from 'node:path';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  apiPublicKey: string;
  apiSecretKey: string;
  smtpUrl?: string;
  mailFrom?: string;
  googleMapsServerKey?: string;
  googleMapsBaseUrl?: string;
  osrmUrl?: string;
}

export const DEFAULT_API_PUBLIC_KEY = 'local-public-key';
export const DEFAULT_API_SECRET_KEY = 'local-secret-key';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT) || 8080,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    apiPublicKey: env.API_PUBLIC_KEY || DEFAULT_API_PUBLIC_KEY,
    apiSecretKey: env.API_SECRET_KEY || DEFAULT_API_SECRET_KEY,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    googleMapsServerKey: env.GOOGLE_MAPS_SERVER_KEY || undefined,
    googleMapsBaseUrl: env.GOOGLE_MAPS_BASE_URL || undefined,
    osrmUrl: env.OSRM_URL || undefined,
  };
}
