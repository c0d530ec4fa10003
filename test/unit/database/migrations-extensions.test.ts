import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../../../drizzle/database.js";

/**
 * Hosted PostgreSQL servers (RDS, Cloud SQL, Azure, Supabase …) give no superuser: a migration may
 * create only extensions PostgreSQL marks trusted, which the database's owner may create itself.
 * test/integration/least-privilege.test.ts migrates as such an owner.
 */
const TRUSTED_EXTENSIONS_USED = ["btree_gin", "pg_trgm"];

describe("the migrations' extensions", () => {
  it("are trusted ones only, created by the database's owner without a superuser", () => {
    const created = readdirSync(migrationsFolder)
      .filter((file) => file.endsWith(".sql"))
      .flatMap((file) => [...readFileSync(path.join(migrationsFolder, file), "utf8").matchAll(/create\s+extension\s+(?:if\s+not\s+exists\s+)?"?([a-z0-9_]+)"?/gi)].map((match) => match[1]));
    expect(created.length).toBeGreaterThan(0);
    expect([...new Set(created)].sort()).toEqual(TRUSTED_EXTENSIONS_USED);
  });
});
