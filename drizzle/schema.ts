import { sql } from "drizzle-orm";
import type { Conversion } from "../core/exchange-rates.js";
import {
  check,
  customType,
  bigint,
  bigserial,
  boolean,
  char,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Both drivers read timestamps as Date objects in UTC. */
const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const commercialModel = pgEnum("commercial_model", ["AGENT", "RESELLER"]);
export const environmentName = pgEnum("environment_name", ["sandbox", "production"]);

/** Upstream systems a product is booked through; `name` is the upper-case identifier the API shows. */
export const bookingEngines = pgTable("booking_engines", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  kind: text("kind").notNull().default("INVENTORY"),
  createdAt: utc("created_at").notNull().defaultNow(),
});

/**
 * How to reach a booking engine of kind OCTO: the supplier system's base URL, its API key sealed
 * (core/secret-box.ts, never stored or shown in clear), and the capabilities we ask it for.
 */
export const octoConnections = pgTable("octo_connections", {
  engineId: integer("engine_id")
    .primaryKey()
    .references(() => bookingEngines.id, { onDelete: "cascade" }),
  engineName: text("engine_name").notNull().unique(),
  baseUrl: text("base_url").notNull(),
  sealedApiKey: text("sealed_api_key").notNull(),
  capabilities: text("capabilities").array().notNull(),
  /** The supplier system's own id and name, from GET /supplier when it was registered. */
  octoSupplierId: text("octo_supplier_id").notNull(),
  octoSupplierName: text("octo_supplier_name").notNull(),
  /** OCTO names no country for a supplier: the imported suppliers get this one. */
  countryCode: char("country_code", { length: 2 }).notNull(),
  registeredAt: utc("registered_at").notNull().defaultNow(),
  updatedAt: utc("updated_at").notNull().defaultNow(),
  /** Set while a content import runs (one at a time per engine); a crashed import's claim lapses. */
  importStartedAt: utc("import_started_at"),
  lastImportedAt: utc("last_imported_at"),
});

/**
 * Where an organisation wants to hear of its events (issue 15, docs/webhooks.md): one URL, the
 * event types it asked for, and the secret its deliveries are signed with, sealed.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey(),
    organisationId: integer("organisation_id").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    eventTypes: text("event_types").array().notNull(),
    sealedSecret: text("sealed_secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** When deliveries began failing without a success since; null while it answers. */
    failingSince: utc("failing_since"),
    createdAt: utc("created_at").notNull(),
    updatedAt: utc("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_organisation").on(t.organisationId)],
);

/**
 * One event for one endpoint: written in the transaction of the change it announces, delivered
 * by the worker, in order per ordering key (a booking), until it succeeds or its retries end.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: uuid("id").primaryKey(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    sequence: bigserial("sequence", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    /** Messages of one key (a booking's id) are delivered one after the other, in the order written. */
    orderingKey: text("ordering_key").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: utc("created_at").notNull(),
    /** PENDING until delivered (DELIVERED) or out of retries (FAILED). */
    status: text("status").notNull().default("PENDING"),
    nextAttemptAt: utc("next_attempt_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseId: uuid("lease_id"),
    lockedUntil: utc("locked_until"),
    deliveredAt: utc("delivered_at"),
    lastResponseStatus: integer("last_response_status"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
  },
  (t) => [
    index("webhook_messages_due").on(t.status, t.nextAttemptAt),
    index("webhook_messages_order").on(t.endpointId, t.orderingKey, t.sequence),
    index("webhook_messages_endpoint_log").on(t.endpointId, t.createdAt),
  ],
);

/** Each try of a message: what the endpoint answered and how long it took. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => webhookMessages.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    at: utc("at").notNull(),
    /** DELIVERED, or FAILED with the response status or the error. */
    outcome: text("outcome").notNull(),
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_message").on(t.messageId, t.attempt)],
);

export const organisations = pgTable("organisations", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  countryCode: char("country_code", { length: 2 }).notNull(),
  commercialModel: commercialModel("commercial_model").notNull(),
  bookingEngineId: integer("booking_engine_id").references(() => bookingEngines.id),
  /** The trackingId feature of spec 3: product reads carry a per-call id instead of the static one. */
  trackingIdsEnabled: boolean("tracking_ids_enabled").notNull().default(false),
  createdAt: utc("created_at").notNull().defaultNow(),
});

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    /**
     * The one environment the account signs in to: sandbox and production may share a database,
     * and neither accepts the other's accounts. A username is unique within its environment.
     */
    environment: environmentName("environment").notNull(),
    /** Null until the user has set a password through the setup link. */
    passwordHash: text("password_hash"),
    roles: text("roles").array().notNull(),
    organisationId: integer("organisation_id").references(() => organisations.id),
    disabledAt: utc("disabled_at"),
    createdAt: utc("created_at").notNull().defaultNow(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("accounts_environment_username_lower").on(t.environment, sql`lower(${t.username})`)],
);

/** One-time links through which a new user chooses a password; only the hash of the token is kept. */
export const passwordSetupTokens = pgTable(
  "password_setup_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: utc("expires_at").notNull(),
    usedAt: utc("used_at"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("password_setup_tokens_account").on(t.accountId)],
);

/** Asymmetric token-signing keys, one set per environment, so restarts keep issued tokens valid. */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  environment: environmentName("environment").notNull(),
  algorithm: text("algorithm").notNull(),
  publicJwk: jsonb("public_jwk").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  createdAt: utc("created_at").notNull().defaultNow(),
  retiredAt: utc("retired_at"),
});

/**
 * The address integrators reach each environment at (PUBLIC_URL), as the last service of that
 * environment started with it set: the operator CLI, run without PUBLIC_URL, builds its
 * password-setup links from it.
 */
export const publicAddresses = pgTable("public_addresses", {
  environment: environmentName("environment").primaryKey(),
  publicUrl: text("public_url").notNull(),
  recordedAt: utc("recorded_at").notNull().defaultNow(),
});

/**
 * What each account has used of its API limits, shared by every edge process and replica
 * (identity/account-limits.ts): the cost bucket's level as of `cost_updated_at` (it drains at the
 * restore rate from then on) and the requests counted in the current rate window. Each process
 * adds what it admitted every few hundred milliseconds, in one statement for all its accounts.
 */
export const accountLimits = pgTable("account_limits", {
  accountId: uuid("account_id").primaryKey(),
  costLevel: doublePrecision("cost_level").notNull(),
  costUpdatedAt: utc("cost_updated_at").notNull(),
  windowIndex: bigint("window_index", { mode: "number" }).notNull(),
  windowRequests: integer("window_requests").notNull(),
});

/**
 * Refresh tokens rotate: each use marks the row used and issues a successor in the same session.
 * A second use of a used token revokes the whole session (RFC 6819 5.2.2.3).
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: uuid("session_id").notNull(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    environment: environmentName("environment").notNull(),
    /** Time of the password grant that opened the session; the refresh cap counts from here. */
    sessionStartedAt: utc("session_started_at").notNull(),
    /** OAuth scopes granted at the password grant; refreshes keep them. */
    scope: text("scope").notNull().default(""),
    expiresAt: utc("expires_at").notNull(),
    usedAt: utc("used_at"),
    revoked: boolean("revoked").notNull().default(false),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("refresh_tokens_session").on(t.sessionId), index("refresh_tokens_expires").on(t.expiresAt)],
);

// ---------------------------------------------------------------------------------------------
// Catalogue (owned by the catalogue subgraph)
// ---------------------------------------------------------------------------------------------

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * Full-text documents of a product, under each language's own dictionary, plus 'simple' over
 * every language for those without one: the title, and the descriptions.
 */
const SEARCH_LANGUAGES: [string, string][] = [
  ["en", "english"],
  ["de", "german"],
  ["fr", "french"],
  ["es", "spanish"],
  ["it", "italian"],
  ["nl", "dutch"],
  ["pt", "portuguese"],
  ["da", "danish"],
];
export const searchConfigs = Object.fromEntries(SEARCH_LANGUAGES) as Record<string, string>;
const documentOf = (columns: string[]) =>
  sql.raw(
    [
      ...SEARCH_LANGUAGES.map(([code, config]) => `to_tsvector('${config}'::regconfig, ${columns.map((c) => `coalesce(${c}->>'${code}', '')`).join(" || ' ' || ")})`),
      ...columns.map((c) => `to_tsvector('simple'::regconfig, coalesce(${c}, '{}'::jsonb))`),
    ].join(" || "),
  );

/** A language object of the contract: ISO 639-1 code → text. */
export type LanguageText = Record<string, string>;

export const suppliers = pgTable(
  "suppliers",
  {
    id: serial("id").primaryKey(),
    bookingEngineId: integer("booking_engine_id")
      .notNull()
      .references(() => bookingEngines.id),
    externalId: text("external_id").notNull(),
    countryCode: char("country_code", { length: 2 }).notNull(),
    channel: text("channel"),
    name: text("name"),
    endpoint: text("endpoint"),
    logo: text("logo"),
    website: text("website"),
    email: text("email"),
    telephone: text("telephone"),
    address: text("address"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    geoHash: text("geo_hash"),
    creationDate: utc("creation_date").notNull().defaultNow(),
    updateDate: utc("update_date").notNull().defaultNow(),
    /** Deleted suppliers are gone for the API; the row stays so their products' history can say DELETED. */
    deletedAt: utc("deleted_at"),
  },
  (t) => [
    uniqueIndex("suppliers_engine_external_id_live").on(t.bookingEngineId, t.externalId).where(sql`${t.deletedAt} is null`),
    index("suppliers_engine_live").on(t.bookingEngineId, t.id).where(sql`${t.deletedAt} is null`),
  ],
);

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    supplierId: integer("supplier_id")
      .notNull()
      .references(() => suppliers.id),
    /** The supplier's booking engine: externalIds are unique within it, and a push moves a product between its suppliers. */
    scopeEngineId: integer("scope_engine_id")
      .notNull()
      .references(() => bookingEngines.id),
    externalId: text("external_id").notNull(),
    /** The engine the product is booked through; the supplier's unless the product names another. */
    bookingEngineId: integer("booking_engine_id")
      .notNull()
      .references(() => bookingEngines.id),
    title: jsonb("title").$type<LanguageText>().notNull(),
    subtitle: jsonb("subtitle").$type<LanguageText>(),
    shortDescription: jsonb("short_description").$type<LanguageText>(),
    description: jsonb("description").$type<LanguageText>(),
    experienceHighlights: jsonb("experience_highlights").$type<LanguageText>(),
    bookingUrl: jsonb("booking_url").$type<LanguageText>(),
    cancellationCutOff: jsonb("cancellation_cut_off").$type<LanguageText>(),
    modalitiesIncluded: jsonb("modalities_included").$type<LanguageText>(),
    modalitiesExcluded: jsonb("modalities_excluded").$type<LanguageText>(),
    modalitiesAdditionalInfo: jsonb("modalities_additional_info").$type<LanguageText>(),
    countryCode: char("country_code", { length: 2 }),
    zipCode: text("zip_code"),
    cityName: text("city_name"),
    rating: doublePrecision("rating"),
    numberOfRatings: integer("number_of_ratings"),
    channel: text("channel"),
    internalName: text("internal_name"),
    reference: text("reference"),
    instantConfirmation: boolean("instant_confirmation"),
    instantDelivery: boolean("instant_delivery"),
    availabilityType: text("availability_type"),
    redemptionMethod: text("redemption_method"),
    thumbnailImage: text("thumbnail_image"),
    minPrice: doublePrecision("min_price"),
    maxPrice: doublePrecision("max_price"),
    priceCurrency: char("price_currency", { length: 3 }),
    pricingUnit: text("pricing_unit"),
    priceLevel: integer("price_level"),
    averagePrice: doublePrecision("average_price"),
    minParticipants: integer("min_participants"),
    maxParticipants: integer("max_participants"),
    address: text("address"),
    placeId: text("place_id"),
    website: text("website"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    geoHash: text("geo_hash"),
    duration: text("duration"),
    galleryImages: jsonb("gallery_images").$type<{ title?: string; url: string; order?: number }[]>(),
    categories: jsonb("categories").$type<{ level: number; code: string; name?: LanguageText; description?: LanguageText }[]>(),
    availabilityPeriods: jsonb("availability_periods").$type<Record<string, unknown>>(),
    itinerary: jsonb("itinerary").$type<Record<string, unknown>>(),
    isCancellable: boolean("is_cancellable"),
    cancellationCutOffAmount: integer("cancellation_cut_off_amount"),
    cancellationCutOffUnit: text("cancellation_cut_off_unit"),
    handiAccess: boolean("handi_access"),
    estCommNet: doublePrecision("est_comm_net"),
    estCommFrpricePerc: doublePrecision("est_comm_frprice_perc"),
    likelyToBeSoldOut: boolean("likely_to_be_sold_out"),
    skipTheLine: boolean("skip_the_line"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    titleDocument: tsvector("title_document").generatedAlwaysAs(documentOf(["title"])),
    descriptionDocument: tsvector("description_document").generatedAlwaysAs(documentOf(["short_description", "description"])),
    /** Every title in lower case, for typo-tolerant (trigram) matching. */
    titleText: text("title_text").generatedAlwaysAs(sql`lower(jsonb_path_query_array(title, '$.*')::text)`),
    /**
     * Search's sort key in English, the default language (`lower(coalesce(title->>'en', title_text))`),
     * stored so that an index can hold it beside what the filters read: a search page in English is
     * then read from that index alone (products_search_walk_en, migration 0015).
     */
    titleSortEn: text("title_sort_en").generatedAlwaysAs(sql`lower(coalesce(title->>'en', jsonb_path_query_array(title, '$.*')::text))`),
    /**
     * The product's taxonomy nodes, kept equal to its product_taxonomies rows by triggers (migration
     * 0015), so that a taxonomy criterion is a filter on the product's own row and its indexes.
     */
    taxonomyUuids: uuid("taxonomy_uuids").array().notNull().default(sql`'{}'::uuid[]`),
    deprecated: boolean("deprecated").notNull().default(false),
    /** The booking flow can sell it: told by the booking subgraph through the graph (subgraphs/booking/booking-flow). */
    bookingFlow: boolean("booking_flow").notNull().default(false),
    /**
     * The version of the booking flow's last tell applied (booking_flow_versions): tells can reach
     * the catalogue out of order, and one older than this changes nothing.
     */
    bookingFlowVersion: integer("booking_flow_version").notNull().default(0),
    creationDate: utc("creation_date").notNull().defaultNow(),
    updateDate: utc("update_date").notNull().defaultNow(),
    deletedAt: utc("deleted_at"),
  },
  (t) => [
    uniqueIndex("products_scope_external_id_live").on(t.scopeEngineId, t.externalId).where(sql`${t.deletedAt} is null`),
    index("products_supplier_live").on(t.supplierId, t.id).where(sql`${t.deletedAt} is null`),
    index("products_title_document").using("gin", t.titleDocument),
    index("products_description_document").using("gin", t.descriptionDocument),
    index("products_title_trgm").using("gin", sql`${t.titleText} gin_trgm_ops`),
    index("products_update_date").on(t.updateDate, t.id),
    /** A country, with or without a rating range: the caller's country first in search, and expressions such as countryCode:FR AND rating:>4. */
    index("products_country_rating").on(t.countryCode, t.rating),
    /** The caller's country's title matches in one index scan (btree_gin), instead of two bitmaps of 70,000 and 30,000 rows ANDed. */
    index("products_search_country_title").using("gin", t.countryCode, t.titleDocument).where(sql`${t.deletedAt} is null and not ${t.deprecated}`),
    /** A taxonomy criterion's products when no ordered walk serves the page. */
    index("products_search_taxonomies").using("gin", t.taxonomyUuids).where(sql`${t.deletedAt} is null and not ${t.deprecated}`),
    // products_search_walk_en (country_code, title_sort_en, id) INCLUDE (rating, title_document,
    // taxonomy_uuids) is written by hand in migration 0015: drizzle's index builder has no INCLUDE.
  ],
);

export const productChangeType = pgEnum("product_change_type", ["NEW", "UPDATED", "DELETED", "DEPRECATED", "UNDEPRECATED"]);

/** Append-only log of product changes, written in the transaction of the change; spec 3 reads it. */
export const productChanges = pgTable(
  "product_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    changeType: productChangeType("change_type").notNull(),
    changedAt: utc("changed_at").notNull().defaultNow(),
  },
  (t) => [index("product_changes_changed_at").on(t.changedAt), index("product_changes_product").on(t.productId, t.changedAt)],
);

/** The activities taxonomy of spec 3: level 1 categories and their level 2 subcategories. */
/**
 * How many transactions have changed what a search can read (products, their suppliers, engines,
 * taxonomy nodes and change log), over 16 slots: each such transaction adds one to one slot as it
 * commits (deferred triggers, migration 0016), so the sum read in a statement's snapshot names
 * exactly the catalogue that statement sees. A process keeps a search's total beside the sum it
 * was counted at (subgraphs/catalogue/search/search.totals.ts). Slots, so that concurrent writers
 * rarely wait for each other's commit on one row.
 */
export const catalogueVersions = pgTable("catalogue_versions", {
  slot: integer("slot").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

export const taxonomyNodes = pgTable(
  "taxonomy_nodes",
  {
    uuid: uuid("uuid").primaryKey(),
    family: text("family").notNull(),
    level: integer("level").notNull(),
    /** The code content partners send in product categories. */
    code: text("code").notNull(),
    parentUuid: uuid("parent_uuid"),
    slug: text("slug").notNull(),
    name: jsonb("name").$type<LanguageText>().notNull(),
    version: integer("version").notNull().default(1),
    isCurrent: boolean("is_current").notNull().default(true),
    startDate: date("start_date", { mode: "string" }).notNull(),
  },
  (t) => [uniqueIndex("taxonomy_nodes_slug_version").on(t.slug, t.version), index("taxonomy_nodes_code").on(t.level, t.code)],
);

/** Which taxonomy nodes a product's categories map to. */
export const productTaxonomies = pgTable(
  "product_taxonomies",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    nodeUuid: uuid("node_uuid")
      .notNull()
      .references(() => taxonomyNodes.uuid),
  },
  // A node's products from the index alone (taxonomy:<slug> in search), without a heap read each.
  (t) => [primaryKey({ columns: [t.productId, t.nodeUuid] }), index("product_taxonomies_node").on(t.nodeUuid, t.productId)],
);

/** Service-wide secrets (e.g. the key that signs import cursors), made once and shared by every replica. */
/**
 * Failed sign-ins, one row per key they count against (`account:<username>`, `address:<ip>`):
 * shared by every replica, so throttling cannot be sidestepped by spreading guesses over them.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull(),
    failedAt: utc("failed_at").notNull(),
  },
  (t) => [index("sign_in_failures_key_time").on(t.key, t.failedAt)],
);

export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: utc("created_at").notNull().defaultNow(),
});

/** Per-call ids handed out by product reads of organisations with the trackingId feature. */
export const productTrackingIds = pgTable(
  "product_tracking_ids",
  {
    trackingId: bigint("tracking_id", { mode: "number" }).primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    organisationId: integer("organisation_id")
      .notNull()
      .references(() => organisations.id),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("product_tracking_ids_product").on(t.productId)],
);

// ---------------------------------------------------------------------------------------------
// Booking (owned by the booking subgraph)

/** The built-in inventory engine's setup of a product (subgraphs/booking/engines/inventory/booking-setup.schema.ts). */
export const bookingSetups = pgTable("booking_setups", {
  productId: integer("product_id")
    .primaryKey()
    .references(() => products.id),
  setup: jsonb("setup").$type<Record<string, unknown>>().notNull(),
  updatedAt: utc("updated_at").notNull().defaultNow(),
});

/**
 * Orders a product's booking flow changes in the order their transactions took the
 * announcement's row, whatever the clocks say. 2^31 changes of setups is far beyond any lifetime.
 */
export const bookingFlowVersions = pgSequence("booking_flow_versions", { maxValue: 2147483647 });

/**
 * Whether the booking flow can sell a product, waiting to be told to the catalogue (which shows
 * it as onlineBookable). Written in the transaction that changes it, so a crash loses no change;
 * the row stays until the catalogue has acknowledged the value it holds.
 */
export const bookingFlowAnnouncements = pgTable(
  "booking_flow_announcements",
  {
    productId: integer("product_id").primaryKey(),
    bookable: boolean("bookable").notNull(),
    changedAt: utc("changed_at").notNull(),
    /** Taken from booking_flow_versions by each change: the catalogue applies only a newer one. */
    version: integer("version").notNull().default(sql`nextval('booking_flow_versions')`),
    attempts: integer("attempts").notNull().default(0),
    retryAt: utc("retry_at").notNull(),
    lastError: text("last_error"),
  },
  (t) => [index("booking_flow_announcements_due").on(t.retryAt)],
);

/**
 * Places of one slot. `taken` counts places held by ON_HOLD, PENDING_CONFIRM and CONFIRMED
 * bookings; the check constraint makes overbooking impossible whatever the code does.
 */
export const slotInventory = pgTable(
  "slot_inventory",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    startsAt: utc("starts_at").notNull(),
    capacity: integer("capacity").notNull(),
    taken: integer("taken").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productId, t.startsAt] }), check("slot_inventory_not_overbooked", sql`${t.taken} >= 0 and ${t.taken} <= ${t.capacity}`)],
);

/** An availability (steps 2 and 3): the date, options and quantities a booking is made from. */
export const availabilities = pgTable(
  "availabilities",
  {
    id: uuid("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    organisationId: integer("organisation_id").references(() => organisations.id),
    accountId: uuid("account_id").notNull(),
    engineName: text("engine_name").notNull(),
    availabilityDate: date("availability_date", { mode: "string" }).notNull(),
    language: text("language").notNull(),
    /** Chosen in the prices step; holds to the end of the flow. */
    currency: char("currency", { length: 3 }),
    /** The engine's setup as it was when the availability was made, so later steps see one product. */
    setup: jsonb("setup").$type<Record<string, unknown>>().notNull(),
    /** Option key to chosen value. */
    selections: jsonb("selections").$type<Record<string, string>>().notNull().default({}),
    quantities: jsonb("quantities").$type<Record<string, number>>().notNull().default({}),
    /** Total the client last saw, in `currency`: compared at booking creation (error 9573). */
    quotedTotal: doublePrecision("quoted_total"),
    createdAt: utc("created_at").notNull().defaultNow(),
    expiresAt: utc("expires_at").notNull(),
  },
  (t) => [index("availabilities_expires").on(t.expiresAt)],
);

export const bookingStatus = pgEnum("booking_status", [
  "ON_HOLD",
  "PENDING",
  "PENDING_CONFIRM",
  "EXPIRED",
  "CONFIRMED",
  "REJECTED",
  "CANCELLED",
  "REDEEMED",
]);
export const paymentStatus = pgEnum("payment_status", ["PAID", "ON_HOLD", "REFUND", "REFUNDED", "FAILED"]);

export const bookings = pgTable(
  "bookings",
  {
    id: uuid("id").primaryKey(),
    availabilityId: uuid("availability_id")
      .notNull()
      .references(() => availabilities.id),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    organisationId: integer("organisation_id").references(() => organisations.id),
    accountId: uuid("account_id").notNull(),
    environment: environmentName("environment").notNull(),
    resellerRef: text("reseller_ref").notNull(),
    externalClientId: text("external_client_id"),
    status: bookingStatus("status").notNull(),
    paymentStatus: paymentStatus("payment_status").notNull(),
    language: text("language").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    availabilityDate: date("availability_date", { mode: "string" }).notNull(),
    startsAt: utc("starts_at").notNull(),
    /** Local start with offset and zone, as shown (availabilityDateTime). */
    startsAtLocal: text("starts_at_local").notNull(),
    engineName: text("engine_name").notNull(),
    setup: jsonb("setup").$type<Record<string, unknown>>().notNull(),
    selections: jsonb("selections").$type<Record<string, string>>().notNull(),
    quantities: jsonb("quantities").$type<Record<string, number>>().notNull(),
    participants: integer("participants").notNull(),
    totalRetail: doublePrecision("total_retail").notNull(),
    /** The product's commission ratio when booked (reports derive the net price from it); null: none agreed. */
    commissionRate: doublePrecision("commission_rate"),
    /** The exchange rates its prices were converted at (core/exchange-rates.ts Conversion); null for bookings made before they were kept. */
    exchangeRates: jsonb("exchange_rates").$type<Conversion>(),
    /** Start plus the product's duration when booked; null when the product gives none. */
    endsAt: utc("ends_at"),
    /** Question id to answer; personal data, emptied by the redaction job. */
    answers: jsonb("answers").$type<Record<string, string>>().notNull().default({}),
    answersUpdatedAt: utc("answers_updated_at"),
    answersRedactedAt: utc("answers_redacted_at"),
    /** ON_HOLD bookings not confirmed by then become EXPIRED and give their places back. */
    holdExpiresAt: utc("hold_expires_at").notNull(),
    bookingCode: text("booking_code"),
    bookingExternalId: text("booking_external_id"),
    productExternalId: text("product_external_id").notNull(),
    confirmRequestedAt: utc("confirm_requested_at"),
    confirmedAt: utc("confirmed_at"),
    voucherCreatedAt: utc("voucher_created_at"),
    /** A supplier system's own voucher (OCTO PDF_URL): the booking's voucherUrl when given. */
    supplierVoucherUrl: text("supplier_voucher_url"),
    /** The code a supplier system's ticket is scanned by (OCTO QRCODE, CODE128, AZTECCODE): printed on our voucher. */
    supplierVoucherCode: text("supplier_voucher_code"),
    rejectedAt: utc("rejected_at"),
    rejectionReason: text("rejection_reason"),
    cancelledAt: utc("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
    refundPercentage: doublePrecision("refund_percentage"),
    expiredAt: utc("expired_at"),
    creationDate: utc("creation_date").notNull().defaultNow(),
    updateDate: utc("update_date").notNull().defaultNow(),
  },
  (t) => [
    /** Creating twice with the same resellerRef and availability finds the first booking. */
    uniqueIndex("bookings_idempotency").on(t.availabilityId, t.resellerRef),
    index("bookings_organisation_created").on(t.organisationId, t.creationDate),
    index("bookings_hold").on(t.holdExpiresAt).where(sql`${t.status} = 'ON_HOLD'`),
    index("bookings_answers_retained").on(t.answersUpdatedAt).where(sql`${t.answersRedactedAt} is null`),
  ],
);

/**
 * Durable work for the worker (supplier confirmation), written in the transaction that asks for
 * it. A worker leases a job (`leaseId`, `lockedUntil`); one that dies lets the lease lapse and
 * another takes the job over; only the lease holder can complete it.
 */
export const bookingJobs = pgTable(
  "booking_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => bookings.id),
    kind: text("kind").notNull(),
    runAt: utc("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    leaseId: uuid("lease_id"),
    lockedUntil: utc("locked_until"),
    lastError: text("last_error"),
    doneAt: utc("done_at"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("booking_jobs_due").on(t.runAt).where(sql`${t.doneAt} is null`),
    uniqueIndex("booking_jobs_one_per_kind").on(t.bookingId, t.kind),
  ],
);

/**
 * The reporting subgraph's read model (spec 2, reporting records): one narrow row per booking
 * that reached the supplier-facing states (never ON_HOLD or EXPIRED carts). Kept by the trigger
 * `bookings_report_projection` (migration 0006) in the same transaction as every booking change,
 * so reports can neither lag nor miss an event; indexed for each documented filter, with and
 * without the organisation a consumer is limited to.
 */
export const bookingReports = pgTable(
  "booking_reports",
  {
    bookingId: uuid("booking_id")
      .primaryKey()
      .references(() => bookings.id),
    organisationId: integer("organisation_id"),
    accountId: uuid("account_id").notNull(),
    testMode: boolean("test_mode").notNull(),
    status: bookingStatus("status").notNull(),
    bookingCode: text("booking_code"),
    bookingExternalId: text("booking_external_id"),
    externalClientId: text("external_client_id"),
    bookingEngineName: text("booking_engine_name").notNull(),
    bookedAt: utc("booked_at").notNull(),
    confirmedAt: utc("confirmed_at"),
    voucherCreatedAt: utc("voucher_created_at"),
    cancelledAt: utc("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
    activityStartAt: utc("activity_start_at").notNull(),
    activityEndAt: utc("activity_end_at"),
    priceGross: doublePrecision("price_gross").notNull(),
    priceNet: doublePrecision("price_net").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    paxBooked: integer("pax_booked").notNull(),
    productId: integer("product_id").notNull(),
    /** The username of the API account that booked: the partner's sales channel. */
    partnerChannelName: text("partner_channel_name"),
    updatedAt: utc("updated_at").notNull(),
  },
  (t) => [
    index("booking_reports_booked").on(t.bookedAt, t.bookingId),
    index("booking_reports_org_booked").on(t.organisationId, t.bookedAt, t.bookingId),
    index("booking_reports_status").on(t.status, t.bookedAt, t.bookingId),
    index("booking_reports_org_status").on(t.organisationId, t.status, t.bookedAt, t.bookingId),
    index("booking_reports_confirmed").on(t.confirmedAt).where(sql`${t.confirmedAt} is not null`),
    index("booking_reports_org_confirmed").on(t.organisationId, t.confirmedAt).where(sql`${t.confirmedAt} is not null`),
    index("booking_reports_cancelled").on(t.cancelledAt).where(sql`${t.cancelledAt} is not null`),
    index("booking_reports_org_cancelled").on(t.organisationId, t.cancelledAt).where(sql`${t.cancelledAt} is not null`),
    index("booking_reports_test_mode").on(t.testMode, t.bookedAt, t.bookingId),
    index("booking_reports_org_test_mode").on(t.organisationId, t.testMode, t.bookedAt, t.bookingId),
    index("booking_reports_engine").on(t.bookingEngineName, t.bookedAt, t.bookingId),
    index("booking_reports_org_engine").on(t.organisationId, t.bookingEngineName, t.bookedAt, t.bookingId),
    // Narrow single-column indexes (deduplicated by PostgreSQL) make exact counts of large
    // matches cheap: a count of 900,000 rows reads a few MB instead of the table.
    index("booking_reports_count_status").on(t.status),
    index("booking_reports_count_test_mode").on(t.testMode),
    index("booking_reports_count_engine").on(t.bookingEngineName),
    index("booking_reports_code").on(t.bookingCode),
    index("booking_reports_external_id").on(t.bookingExternalId),
    index("booking_reports_client").on(t.externalClientId),
  ],
);
