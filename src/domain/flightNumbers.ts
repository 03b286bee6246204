// A flight, train or ferry reference as the booking forms take it (issue 42, decision 58): a flight number read as
// airlines write it and stored one way ("BA 283"), a train or ferry kept as typed, anything else refused with the
// field's message. Small on purpose: the home form's first page loads it (the rest is ./flights.ts).

/**
 * ICAO airline designators (three letters, as flight plans and AeroAPI write them) of the airlines that fly to UK
 * airports most, with their IATA codes (two characters, as tickets write them): "BAW283" is read as "BA 283".
 * Facts from the airlines' published designators.
 */
export const ICAO_AIRLINES: Readonly<Record<string, string>> = {
  BAW: 'BA', SHT: 'BA', CFE: 'BA', EZY: 'U2', EJU: 'U2', EZS: 'DS', RYR: 'FR', RUK: 'FR', VIR: 'VS', TOM: 'BY', EXS: 'LS',
  LOG: 'LM', EIN: 'EI', EAI: 'EI', AAL: 'AA', UAL: 'UA', DAL: 'DL', ACA: 'AC', UAE: 'EK', QTR: 'QR', ETD: 'EY', SIA: 'SQ',
  CPA: 'CX', QFA: 'QF', AFR: 'AF', KLM: 'KL', DLH: 'LH', SWR: 'LX', AUA: 'OS', SAS: 'SK', FIN: 'AY', IBE: 'IB', VLG: 'VY',
  TAP: 'TP', AZA: 'AZ', ITY: 'AZ', THY: 'TK', WZZ: 'W6', WUK: 'W9', JBU: 'B6', AIC: 'AI', PIA: 'PK', ETH: 'ET', SAA: 'SA',
  KQA: 'KQ', MSR: 'MS', RAM: 'AT', ELY: 'LY', SVA: 'SV', GFA: 'GF', KAC: 'KU', OMA: 'WY', CCA: 'CA', CES: 'MU', CSN: 'CZ',
  JAL: 'JL', ANA: 'NH', KAL: 'KE', MAS: 'MH', THA: 'TG', ICE: 'FI', NAX: 'DY', NOZ: 'DY', BEE: 'BE', AUR: 'GR', LOT: 'LO',
};

export interface FlightNumber {
  /** The airline's IATA code (two characters), or its ICAO designator when it is not in ICAO_AIRLINES. */
  airline: string;
  /** The number without leading zeros, with its letter suffix if any ("283", "12A"). */
  number: string;
}

const IATA_FLIGHT = /^([A-Z][A-Z0-9]|[0-9][A-Z])0*([1-9][0-9]{0,3}[A-Z]?)$/;
const ICAO_FLIGHT = /^([A-Z]{3})0*([1-9][0-9]{0,3}[A-Z]?)$/;

/** "BA283", "BA 0283", "ba-283", "BAW283" -> { airline: 'BA', number: '283' }; anything else null. */
export function parseFlightNumber(text: string | null | undefined): FlightNumber | null {
  const compact = (text ?? '').trim().toUpperCase().replace(/[\s-]+/g, '');
  if (compact.length < 3 || compact.length > 9) return null;
  const icao = ICAO_FLIGHT.exec(compact);
  if (icao) return { airline: ICAO_AIRLINES[icao[1]] ?? icao[1], number: icao[2] };
  const iata = IATA_FLIGHT.exec(compact);
  return iata ? { airline: iata[1], number: iata[2] } : null;
}

/** How a flight is stored and shown: "BA 283". */
export const flightText = (f: FlightNumber) => `${f.airline} ${f.number}`;

/**
 * Words that say a text names a train, a ferry or a port (SPEC 3's field takes "a flight, train, port or ferry
 * reference"): the field keeps such text as it was typed.
 */
const OTHER_TRAVEL = /\b(train|rail|railway|station|eurostar|ferry|ferries|ship|cruise|sailing|port|harbour|dock|p&o|stena|dfds|brittany|condor|wightlink|red funnel|irish ferries|lner|gwr|avanti|crosscountry|transpennine|thameslink|southeastern|southern|heathrow express|gatwick express|stansted express|elizabeth line)\b/i;

export const TRAVEL_REFERENCE_PROBLEM = 'Enter a flight number such as BA 283, or the train or ferry (for example "Eurostar 9014" or "P&O ferry 14:20")';

/** What is wrong with a flight, train or ferry reference; empty is none. */
export function travelReferenceProblem(text: string | null | undefined): string | undefined {
  const v = (text ?? '').trim();
  if (!v || parseFlightNumber(v) || OTHER_TRAVEL.test(v)) return undefined;
  return TRAVEL_REFERENCE_PROBLEM;
}

/** The reference as it is stored: a flight as "BA 283", a train or ferry as typed (trimmed). */
export function normaliseTravelReference(text: string | null | undefined): string {
  const v = (text ?? '').trim();
  const flight = parseFlightNumber(v);
  return flight ? flightText(flight) : v;
}
