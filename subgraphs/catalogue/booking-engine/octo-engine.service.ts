import { refusedOutboundHost } from "../../../core/outbound-address.js";
import type { GraphQLError } from "graphql";
import type { FieldProblem } from "../../../core/errors.js";
import { rejected, type RefusalCode } from "../../../core/refusals.js";
import type { Database } from "../../../drizzle/database.js";
import { channels } from "../../../drizzle/events.js";
import { OctoAddressRefused, OctoNonConforming, OctoRejected, OctoUnavailable, OctoOutcomeUnknown } from "../../common/octo/octo.client.js";
import { EngineSecretsUnavailable, REQUIRED_CAPABILITIES, USED_CAPABILITIES, type OctoEngines, type OctoEngineSettings } from "../../common/octo/octo.engines.js";
import { isCountryCode } from "../../../core/iso-codes.js";
import { BOOKING_ENGINE_NAME } from "../../../core/booking-engine-name.js";
import { bookingEngineRepository, type BookingEngineRow } from "./booking-engine.repository.js";

export interface OctoEngineRegistration {
  name: string;
  baseUrl: string;
  apiKey: string;
  /** Unset: every capability we use that the supplier offers. */
  capabilities?: string[] | null;
  /** ISO 3166-1 alpha-2: the country of the suppliers imported from it. */
  country: string;
}

export interface RegisteredOctoEngine {
  engine: BookingEngineRow;
  settings: OctoEngineSettings;
  /** False when an OCTO engine of that name was already registered and is now replaced. */
  created: boolean;
}

/** Why a registration was refused; the caller shows it as a GraphQL error or an operator message. */
export class OctoRegistrationRefused extends Error {
  override name = "OctoRegistrationRefused";
  constructor(readonly error: GraphQLError) {
    super(error.message);
  }
}

const refuse = (reason: RefusalCode, message: string, problems: FieldProblem[] = []) => new OctoRegistrationRefused(rejected(reason, message, problems));
const fieldProblem = (field: string, rule: string, message: string): FieldProblem => ({ field, rule, message });

/** Shape problems of a registration, before any supplier is called. */
function validate(input: OctoEngineRegistration, environment: "sandbox" | "production"): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!BOOKING_ENGINE_NAME.test(input.name)) problems.push(fieldProblem("name", "pattern", "must be an upper-case identifier of 2 to 64 characters (A-Z, 0-9, _)"));
  let url: URL | undefined;
  try {
    url = new URL(input.baseUrl);
  } catch {
    problems.push(fieldProblem("baseUrl", "format", "must be an absolute URL"));
  }
  if (url && url.protocol !== "https:" && url.protocol !== "http:") problems.push(fieldProblem("baseUrl", "format", "must be an http or https URL"));
  if (url && (url.username || url.password)) problems.push(fieldProblem("baseUrl", "format", "must not carry credentials: give the key as apiKey"));
  if (url && (url.search || url.hash)) problems.push(fieldProblem("baseUrl", "format", "must have no query or fragment"));
  // The sandbox talks to the local supplier (npm run octo-supplier) on plain HTTP at 127.0.0.1.
  if (url && environment === "production") {
    if (url.protocol !== "https:") problems.push(fieldProblem("baseUrl", "format", "must be an https URL in production: the API key travels with every call"));
    const refused = refusedOutboundHost(url.hostname);
    if (refused) problems.push(fieldProblem("baseUrl", "address", `must name a public address in production: ${refused}`));
  }
  // It travels as a Bearer token: a NUL, a space or a control character could not be sent.
  if (!/^[\x21-\x7e]{1,4096}$/.test(input.apiKey)) problems.push(fieldProblem("apiKey", "format", "must be 1 to 4096 visible ASCII characters (a bearer token)"));
  if (!isCountryCode(input.country)) problems.push(fieldProblem("country", "format", "must be an ISO 3166-1 alpha-2 code in upper case"));
  for (const [index, capability] of (input.capabilities ?? []).entries()) {
    if (!(USED_CAPABILITIES as readonly string[]).includes(capability)) {
      problems.push(fieldProblem(`capabilities[${index}]`, "enum", `must be one of ${USED_CAPABILITIES.join(", ")}`));
    }
  }
  for (const required of REQUIRED_CAPABILITIES) {
    if (input.capabilities && !input.capabilities.includes(required)) problems.push(fieldProblem("capabilities", "required", `must include ${required}: the booking flow sells at the supplier's prices`));
  }
  return problems;
}

/**
 * Registers (or replaces) a booking engine of kind OCTO. The supplier system is asked first,
 * with the key given, for who it is and what it offers: a URL that does not answer OCTO, a key it
 * refuses, or a missing capability is refused here and nothing is saved. Only then are the engine
 * and its connection (the key sealed) written, in one transaction.
 */
export async function registerOctoEngine(database: Database, octo: OctoEngines, input: OctoEngineRegistration, now: Date): Promise<RegisteredOctoEngine> {
  const registration = { ...input, baseUrl: input.baseUrl.trim().replace(/\/+$/, ""), capabilities: input.capabilities ? [...new Set(input.capabilities)] : null };
  const problems = validate(registration, octo.environment);
  if (problems.length) throw new OctoRegistrationRefused(rejected("VALIDATION_FAILED", problems.map((p) => `${p.field}: ${p.message}`).join("; "), problems));

  const existing = await bookingEngineRepository.byName(database.db, registration.name);
  if (existing && existing.kind !== "OCTO") {
    throw refuse("ENGINE_KIND_CONFLICT", `Booking engine ${registration.name} exists and is served by the ${existing.kind} engine; an OCTO engine needs a name of its own`);
  }
  try {
    await octo.ensureSecretsUsable();
  } catch (error) {
    if (error instanceof EngineSecretsUnavailable) throw refuse("ENGINE_SECRETS_KEY_MISSING", error.message);
    throw error;
  }

  const supplier = await verify(octo, registration);
  const saved = await database.db.transaction(async (tx) => {
    const { engine, created } = await bookingEngineRepository.ensure(tx, registration.name, "OCTO");
    // Lost a race with a registration of the same name under another kind.
    if (engine.kind !== "OCTO") throw refuse("ENGINE_KIND_CONFLICT", `Booking engine ${registration.name} exists and is served by the ${engine.kind} engine`);
    const settings = await octo.save(
      tx,
      { engineId: engine.id, engineName: engine.name, baseUrl: registration.baseUrl, capabilities: supplier.capabilities, octoSupplierId: supplier.id, octoSupplierName: supplier.name, countryCode: registration.country },
      registration.apiKey,
      now,
    );
    if (created) await database.events.publish(tx, channels.bookingEvents, { type: "booking-engine.registered", bookingEngineId: engine.id });
    return { engine, settings, created };
  });
  return saved;
}

/** Asks the supplier who it is and what it offers, with the key given; refuses what will not work. */
async function verify(octo: OctoEngines, registration: OctoEngineRegistration & { capabilities: string[] | null }): Promise<{ id: string; name: string; capabilities: string[] }> {
  // The caller waits for this: one attempt each, no retries.
  const once = { retries: 0, timeoutMs: 10_000 };
  const probe = octo.client({ engineName: registration.name, baseUrl: registration.baseUrl, apiKey: registration.apiKey, capabilities: [] }, once);
  try {
    const offered: string[] = (await probe.capabilities()).body.map((capability) => capability.id);
    const missing = (registration.capabilities ?? REQUIRED_CAPABILITIES).filter((capability) => !offered.includes(capability));
    if (missing.length) {
      throw refuse("ENGINE_CAPABILITY_MISSING", `The supplier system does not offer ${missing.join(", ")} (it offers ${offered.join(", ") || "none"})`, [
        fieldProblem("capabilities", "offered", `not offered by the supplier system: ${missing.join(", ")}`),
      ]);
    }
    const capabilities = registration.capabilities ?? USED_CAPABILITIES.filter((capability) => offered.includes(capability));
    const supplier = (await octo.client({ engineName: registration.name, baseUrl: registration.baseUrl, apiKey: registration.apiKey, capabilities }, once).supplier()).body;
    return { id: supplier.id, name: supplier.name, capabilities };
  } catch (error) {
    if (error instanceof OctoRegistrationRefused) throw error;
    if (error instanceof OctoRejected && (error.error === "UNAUTHORIZED" || error.error === "FORBIDDEN")) {
      throw refuse("ENGINE_VERIFICATION_FAILED", `The supplier system refused the API key (${error.error})`, [fieldProblem("apiKey", "accepted", "refused by the supplier system")]);
    }
    if (error instanceof OctoRejected || error instanceof OctoNonConforming) {
      throw refuse("ENGINE_VERIFICATION_FAILED", `The base URL does not answer as an OCTO supplier system: ${error.message}`, [fieldProblem("baseUrl", "octo", "does not answer GET /capabilities and GET /supplier as OCTO describes")]);
    }
    if (error instanceof OctoAddressRefused) {
      throw refuse("VALIDATION_FAILED", `baseUrl: ${error.message}`, [fieldProblem("baseUrl", "address", `must name a public address in production: ${error.message}`)]);
    }
    if (error instanceof OctoUnavailable || error instanceof OctoOutcomeUnknown) {
      throw refuse("ENGINE_VERIFICATION_FAILED", `The supplier system could not be reached: ${error.message}`, [fieldProblem("baseUrl", "reachable", "did not answer")]);
    }
    throw error;
  }
}
