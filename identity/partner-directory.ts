import type { Executor } from "../drizzle/executor.js";

/** An organisation as accounts belong to it (the catalogue keeps it). */
export interface OrganisationRecord {
  id: number;
  name: string;
  countryCode: string;
  commercialModel: "AGENT" | "RESELLER";
  bookingEngineId: number | null;
  trackingIdsEnabled: boolean;
  createdAt: Date;
}

/**
 * What the account service needs of the organisations accounts belong to and of a content
 * partner's booking engine: the catalogue owns both tables and implements this
 * (`subgraphs/catalogue/organisation/organisation.partner-directory.ts`); the server hands it over, so identity,
 * below the subgraphs, imports none of their code.
 */
export interface PartnerDirectory {
  organisationByName(db: Executor, name: string): Promise<OrganisationRecord | undefined>;
  organisationsByIds(db: Executor, ids: readonly number[]): Promise<OrganisationRecord[]>;
  createOrganisation(db: Executor, values: { name: string; countryCode: string; commercialModel: string; bookingEngineId: number | null }): Promise<OrganisationRecord>;
  setTrackingIds(db: Executor, organisationId: number, enabled: boolean): Promise<OrganisationRecord>;
  /** The engine of that name, made when there is none; `created` tells which. */
  ensureBookingEngine(db: Executor, name: string): Promise<{ engineId: number; created: boolean }>;
}
