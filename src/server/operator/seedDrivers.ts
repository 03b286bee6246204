// The demo operator's drivers and cars (issue 41): a few for each company, with licences, MOTs and insurance that end
// well after the day the demo database is made, except one driver whose licence runs out within the month (flagged on
// the record page) and one whose has expired (the console refuses to dispatch them). People, so only where the demo's
// people are seeded (seed.ts `people`), never for a server that serves customers. Mobiles are Ofcom's drama numbers.
import type { Queryable } from '../db/index';
import { saveCar, saveDriver } from './fleetRecords';

/** A date `days` from `from`, as YYYY-MM-DD. */
const dayFrom = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);

export const DEMO_DRIVERS = [
  { company: 'Albion Executive Cars', name: 'Daniel Price', mobile: '07700 900101', email: 'daniel.price@albion-executive.co.uk', licence_number: '204518', licensing_authority: 'Transport for London', days: 700 },
  { company: 'Albion Executive Cars', name: 'Ana Costa', mobile: '07700 900102', email: '', licence_number: '219934', licensing_authority: 'Transport for London', days: 21 },
  { company: 'Albion Executive Cars', name: 'Marek Nowak', mobile: '07700 900103', email: '', licence_number: '187240', licensing_authority: 'Transport for London', days: -12 },
  { company: 'Metro Cars London', name: 'Samir Haddad', mobile: '07700 900201', email: 'samir@metrocars.london', licence_number: '231107', licensing_authority: 'Transport for London', days: 540 },
  { company: 'Thames Valley Chauffeurs', name: 'Graham Ellis', mobile: '07700 900301', email: '', licence_number: 'RBC/PH/0412', licensing_authority: 'Reading Borough Council', days: 400 },
];

export const DEMO_CARS = [
  { company: 'Albion Executive Cars', registration: 'LB19 XKE', make: 'Mercedes-Benz', model: 'E-Class', colour: 'Black', type: 'Executive Saloon', passengers: 3, suitcases: 2, wheelchair: false, licence_number: 'PHV 881203', days: 300 },
  { company: 'Albion Executive Cars', registration: 'LC21 KTV', make: 'Toyota', model: 'Corolla Touring Sports', colour: 'Silver', type: 'Estate', passengers: 4, suitcases: 3, wheelchair: false, licence_number: 'PHV 902114', days: 420 },
  { company: 'Albion Executive Cars', registration: 'LD70 WAV', make: 'Ford', model: 'Tourneo Custom', colour: 'Grey', type: 'MPV', passengers: 6, suitcases: 4, wheelchair: true, licence_number: 'PHV 877650', days: 250 },
  { company: 'Metro Cars London', registration: 'LF68 TXI', make: 'Toyota', model: 'Prius', colour: 'White', type: 'Saloon', passengers: 4, suitcases: 2, wheelchair: false, licence_number: 'PHV 911842', days: 360 },
  { company: 'Thames Valley Chauffeurs', registration: 'RG20 TVC', make: 'BMW', model: '5 Series', colour: 'Dark blue', type: 'Executive Saloon', passengers: 3, suitcases: 2, wheelchair: false, licence_number: 'RBC/PV/1187', days: 330 },
];

/** Writes the demo drivers and cars, through the same function as the console (so the same rules). */
export async function seedDrivers(tx: Queryable, companyIds: Map<string, number>, vehicleIds: Map<string, number>, now = new Date()): Promise<void> {
  for (const d of DEMO_DRIVERS) {
    await saveDriver(tx, null, null, {
      name: d.name, mobile: d.mobile, email: d.email, licence_number: d.licence_number, licensing_authority: d.licensing_authority,
      licence_expiry: dayFrom(now, d.days), company_id: String(companyIds.get(d.company)!), active: 'yes',
    });
  }
  for (const c of DEMO_CARS) {
    await saveCar(tx, null, null, {
      registration: c.registration, make: c.make, model: c.model, colour: c.colour, vehicle_type_id: String(vehicleIds.get(c.type)!),
      passengers: String(c.passengers), suitcases: String(c.suitcases), wheelchair: c.wheelchair ? 'yes' : 'no', licence_number: c.licence_number,
      licence_expiry: dayFrom(now, c.days), mot_expiry: dayFrom(now, c.days - 60), insurance_expiry: dayFrom(now, c.days + 30),
      company_id: String(companyIds.get(c.company)!), active: 'yes',
    });
  }
}
