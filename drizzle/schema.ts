import { sql } from "drizzle-orm";
import {
  boolean,
  char,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
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

export const organisations = pgTable("organisations", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  countryCode: char("country_code", { length: 2 }).notNull(),
  commercialModel: commercialModel("commercial_model").notNull(),
  bookingEngineId: integer("booking_engine_id").references(() => bookingEngines.id),
  createdAt: utc("created_at").notNull().defaultNow(),
});

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    /** Null until the user has set a password through the setup link. */
    passwordHash: text("password_hash"),
    roles: text("roles").array().notNull(),
    organisationId: integer("organisation_id").references(() => organisations.id),
    disabledAt: utc("disabled_at"),
    createdAt: utc("created_at").notNull().defaultNow(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("accounts_username_lower").on(sql`lower(${t.username})`)],
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
    expiresAt: utc("expires_at").notNull(),
    usedAt: utc("used_at"),
    revoked: boolean("revoked").notNull().default(false),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("refresh_tokens_session").on(t.sessionId), index("refresh_tokens_expires").on(t.expiresAt)],
);
