// Distances, one way everywhere: kept and shown to a tenth of a mile.

export const METRES_PER_MILE = 1609.344;
const KM_PER_MILE = 1.609344;

/** A distance to a tenth of a mile. */
export const roundMiles = (miles: number): number => Math.round(miles * 10) / 10;

/** Metres (what routing services answer) as miles, to a tenth. */
export const milesFromMetres = (metres: number): number => roundMiles(metres / METRES_PER_MILE);

/** '12.3 miles', or '12.3 mi' where space is short. */
export const formatMiles = (miles: number, unit: 'miles' | 'mi' = 'miles'): string => `${roundMiles(miles).toFixed(1)} ${unit}`;

/** The same distance in whole kilometres. */
export const wholeKm = (miles: number): number => Math.round(miles * KM_PER_MILE);
