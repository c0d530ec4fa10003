import geohash from "ngeohash";
import { country, email, geoLocation, object, phoneNumber, Problems, string, webUrl } from "../validation/validation.checks.js";
import type { SupplierValues } from "./supplier.repository.js";

/** A supplier request (spec 1, "Supplier (request fields for create and update)"). */
export interface SupplierRequest {
  externalId?: string | null;
  country?: string | null;
  bookingEngine?: number | null;
  channel?: string | null;
  name?: string | null;
  endpoint?: string | null;
  logo?: string | null;
  supplierContact?: { website?: string | null; email?: string | null; telephone?: string | null; address?: string | null } | null;
  geoLocation?: { latitude?: number | null; longitude?: number | null; geoHash?: string | null } | null;
}

/** Every problem of a supplier request, each naming the field and the rule (the spec's field table). */
export function supplierProblems(input: SupplierRequest): Problems {
  const p = new Problems();
  string(p, "externalId", input.externalId, { max: 255, required: true });
  country(p, "country", input.country, true);
  string(p, "channel", input.channel, { max: 32 });
  string(p, "name", input.name, { max: 255 });
  string(p, "endpoint", input.endpoint, { max: 255 });
  string(p, "logo", input.logo, { max: 255 });
  if (object(p, "supplierContact", input.supplierContact)) {
    const contact = input.supplierContact!;
    webUrl(p, "supplierContact.website", contact.website, { max: 512 });
    email(p, "supplierContact.email", contact.email, 255);
    phoneNumber(p, "supplierContact.telephone", contact.telephone, 255);
    string(p, "supplierContact.address", contact.address, { max: 255 });
  }
  geoLocation(p, "geoLocation", input.geoLocation);
  return p;
}

/** Column values of a valid request; a geohash is computed when coordinates come without one. */
export function supplierValues(input: SupplierRequest, bookingEngineId: number): SupplierValues {
  const { latitude, longitude, geoHash } = input.geoLocation ?? {};
  return {
    bookingEngineId,
    externalId: input.externalId!,
    countryCode: input.country!,
    channel: input.channel ?? null,
    name: input.name ?? null,
    endpoint: input.endpoint ?? null,
    logo: input.logo ?? null,
    website: input.supplierContact?.website ?? null,
    email: input.supplierContact?.email ?? null,
    telephone: input.supplierContact?.telephone ?? null,
    address: input.supplierContact?.address ?? null,
    latitude: latitude ?? null,
    longitude: longitude ?? null,
    geoHash: geoHash ?? (latitude != null && longitude != null ? geohash.encode(latitude, longitude, 9) : null),
  };
}
