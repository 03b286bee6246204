// A flight, train or ferry reference as the booking forms take it (issue 42, decision 58): a flight number read as
// airlines write it and stored one way ("BA 283"), a train or ferry kept as typed, anything else refused with the
// field's message. Small on purpose: the home form's first page loads it (the rest is ./flights.ts).

/**
 * ICAO airline designators (three letters, as flight plans and AeroAPI write them) of the airlines that fly to UK
 * airports most, with their IATA codes (two characters, as tickets write them): "BAW283" is read as "BA 283".
 * Facts from the airlines' published designators. Built when asked (a rare call), not as the module loads, so a
 * mutation test of each entry runs the tests that read it (docs/mutation.md, static mutants).
 */
export function icaoAirlines(): Readonly<Record<string, string>> {
  return {
    BAW: 'BA', SHT: 'BA', CFE: 'BA', EZY: 'U2', EJU: 'U2', EZS: 'DS', RYR: 'FR', RUK: 'FR', VIR: 'VS', TOM: 'BY', EXS: 'LS',
    LOG: 'LM', EIN: 'EI', EAI: 'EI', AAL: 'AA', UAL: 'UA', DAL: 'DL', ACA: 'AC', UAE: 'EK', QTR: 'QR', ETD: 'EY', SIA: 'SQ',
    CPA: 'CX', QFA: 'QF', AFR: 'AF', KLM: 'KL', DLH: 'LH', SWR: 'LX', AUA: 'OS', SAS: 'SK', FIN: 'AY', IBE: 'IB', VLG: 'VY',
    TAP: 'TP', AZA: 'AZ', ITY: 'AZ', THY: 'TK', WZZ: 'W6', WUK: 'W9', JBU: 'B6', AIC: 'AI', PIA: 'PK', ETH: 'ET', SAA: 'SA',
    KQA: 'KQ', MSR: 'MS', RAM: 'AT', ELY: 'LY', SVA: 'SV', GFA: 'GF', KAC: 'KU', OMA: 'WY', CCA: 'CA', CES: 'MU', CSN: 'CZ',
    JAL: 'JL', ANA: 'NH', KAL: 'KE', MAS: 'MH', THA: 'TG', ICE: 'FI', NAX: 'DY', NOZ: 'DY', BEE: 'BE', AUR: 'GR', LOT: 'LO',
  };
}

export interface FlightNumber {
  /** The airline's IATA code (two characters), or its ICAO designator when icaoAirlines does not know it. */
  airline: string;
  /** The number without leading zeros, with its letter suffix if any ("283", "12A"). */
  number: string;
}

/** The longest a flight number may be written, spaces and dashes aside: "BAW" and four digits, a letter and a zero or two. */
export const FLIGHT_NUMBER_MAX = 9;

/** "BA283", "BA 0283", "ba-283", "BAW283" -> { airline: 'BA', number: '283' }; anything else null. */
export function parseFlightNumber(text: string | null | undefined): FlightNumber | null {
  if (!text) return null;
  const compact = text.toUpperCase().replace(/[\s-]/g, '');
  if (compact.length > FLIGHT_NUMBER_MAX) return null;
  const icao = /^([A-Z]{3})0*([1-9][0-9]{0,3}[A-Z]?)$/.exec(compact);
  if (icao) return { airline: icaoAirlines()[icao[1]] ?? icao[1], number: icao[2] };
  const iata = /^([A-Z][A-Z0-9]|[0-9][A-Z])0*([1-9][0-9]{0,3}[A-Z]?)$/.exec(compact);
  return iata ? { airline: iata[1], number: iata[2] } : null;
}

/** How a flight is stored and shown: "BA 283". */
export function flightText(f: FlightNumber): string {
  return `${f.airline} ${f.number}`;
}

/**
 * Words that say a text names a train, a ferry or a port (SPEC 3's field takes "a flight, train, port or ferry
 * reference"): the field keeps such text as it was typed.
 */
export function namesOtherTravel(text: string): boolean {
  return /\b(train|rail|railway|station|eurostar|ferry|ferries|ship|cruise|sailing|port|harbour|dock|p&o|stena|dfds|brittany|condor|wightlink|red funnel|lner|gwr|avanti|crosscountry|transpennine|thameslink|southeastern|southern|elizabeth line|express|coach)\b/i.test(text);
}

export const TRAVEL_REFERENCE_PROBLEM = 'Enter a flight number such as BA 283, or the train or ferry (for example "Eurostar 9014" or "P&O ferry 14:20")';

/** What is wrong with a flight, train or ferry reference; empty is none. */
export function travelReferenceProblem(text: string | null | undefined): string | undefined {
  const v = (text ?? '').trim();
  if (!v || parseFlightNumber(v) || namesOtherTravel(v)) return undefined;
  return TRAVEL_REFERENCE_PROBLEM;
}

/** The reference as it is stored: a flight as "BA 283", a train or ferry as typed (trimmed). */
export function normaliseTravelReference(text: string | null | undefined): string {
  const v = (text ?? '').trim();
  const flight = parseFlightNumber(v);
  return flight ? flightText(flight) : v;
}

/** SPEC 5: the flight/train/port field shows when the address mentions an airport or terminal. */
export function needsTravelReference(address: string | undefined | null): boolean {
  return /airport|terminal/i.test(address ?? '');
}

/**
 * The booking form's reference that is refused, where its field shows (SPEC 5: the pickup's at an airport or terminal;
 * the return's on a return trip to one): the field and the message. Elsewhere the text is kept as it was typed.
 */
export function travelReferenceFailure(f: {
  pickup?: string; dropoff?: string; select_option?: string; pickup_fight_number?: string; return_fight_number?: string;
}): { field: 'pickup_fight_number' | 'return_fight_number'; message: string } | null {
  const outbound = needsTravelReference(f.pickup) ? travelReferenceProblem(f.pickup_fight_number) : undefined;
  if (outbound) return { field: 'pickup_fight_number', message: outbound };
  const back = f.select_option === 'return' && needsTravelReference(f.dropoff) ? travelReferenceProblem(f.return_fight_number) : undefined;
  return back ? { field: 'return_fight_number', message: back } : null;
}
