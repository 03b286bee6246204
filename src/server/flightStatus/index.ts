// The flight status service, chosen once at start-up from configuration (config.ts flights): AeroAPI, the local test
// service, or none.
import type { Config } from '../config';
import type { Db } from '../db/index';
import { aeroApiFlights } from './aeroapi';
import { testFlightService } from './testService';
import type { FlightStatusService } from './service';

export function flightsFromConfig(config: Pick<Config, 'flights'>, db: Db): FlightStatusService | null {
  const f = config.flights;
  if (f.service === 'aeroapi') return aeroApiFlights(f.key, f.url);
  if (f.service === 'test') return testFlightService(db);
  return null;
}
