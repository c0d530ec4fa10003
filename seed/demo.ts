import { randomBytes } from "node:crypto";
import type { Role } from "../core/roles.js";
import { accountRepository } from "../identity/account.repository.js";
import type { AccountService, CreateAccountInput } from "../identity/account.service.js";
import type { Database } from "../drizzle/database.js";

/** The booking engine of the built-in inventory (products booked through this service itself). */
export const INVENTORY_ENGINE = "ACTIVITIES_INVENTORY";

interface DemoAccount extends Omit<CreateAccountInput, "password" | "role"> {
  role: Role;
  sandboxPassword: string;
}

/** One account per role; the organisations cover both commercial models and several countries. */
export const demoAccounts: DemoAccount[] = [
  { username: "demo-platform", role: "PLATFORM_CATALOG_MANAGEMENT", sandboxPassword: "sandbox-catalogue-2026" },
  { username: "demo-operator", role: "OPERATOR", sandboxPassword: "sandbox-operations-2026" },
  {
    username: "demo-partner",
    role: "CONTENT_PARTNER",
    organisation: "Alpine Experiences AG",
    country: "CH",
    model: "agent",
    bookingEngine: INVENTORY_ENGINE,
    sandboxPassword: "sandbox-content-2026",
  },
  {
    username: "demo-consumer",
    role: "CONSUMER",
    organisation: "Wanderlust Travel Ltd",
    country: "GB",
    model: "agent",
    sandboxPassword: "sandbox-booking-2026",
  },
  {
    username: "demo-reseller",
    role: "CONSUMER",
    organisation: "Reisewelt Reseller GmbH",
    country: "DE",
    model: "reseller",
    sandboxPassword: "sandbox-reselling-2026",
  },
];

export interface SeededAccount {
  username: string;
  role: Role;
  organisation?: string;
  password: string;
}

/** Accounts that administer the platform: never made by a seed in production, where the operator CLI makes them. */
const platformAdministration: Role[] = ["PLATFORM_CATALOG_MANAGEMENT", "OPERATOR"];

/**
 * Seeds the demo accounts on a first start (an account already present is left alone). In the
 * sandbox the passwords are the fixed ones above. In production (only when SEED_DEMO asks for it)
 * only the content partner and consumer accounts are made, each with a random password printed
 * once: an account that administers the platform is never seeded with a printed password.
 */
export async function seedDemo(database: Database, accounts: AccountService, environment: "sandbox" | "production"): Promise<SeededAccount[]> {
  const created: SeededAccount[] = [];
  const seeded = environment === "sandbox" ? demoAccounts : demoAccounts.filter((demo) => !platformAdministration.includes(demo.role));
  for (const demo of seeded) {
    if (await accountRepository.byUsername(database.db, environment, demo.username)) continue;
    const password = environment === "sandbox" ? demo.sandboxPassword : randomBytes(18).toString("base64url");
    const { sandboxPassword: _unused, ...input } = demo;
    await accounts.createAccount({ ...input, password });
    created.push({ username: demo.username, role: demo.role, organisation: demo.organisation, password });
  }
  return created;
}
