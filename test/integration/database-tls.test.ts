import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseUnreachable, openDatabase, rows } from "../../drizzle/database.js";
import { databaseAddress } from "../../core/database-tls.js";
import { startPgbouncer, type Pgbouncer } from "../support/pgbouncer.js";
import { makeTestAuthority, type TestAuthority } from "../support/tls-certificates.js";

/** PostgreSQL itself: DATABASE_DIRECT_URL when the suite runs through a pooler, else DATABASE_URL. */
const server = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;

/**
 * TLS to the database as a hosted PostgreSQL asks for it (`?sslmode=verify-full&sslrootcert=…`).
 * This machine's PostgreSQL has no TLS: PgBouncer stands in for the server, admitting TLS clients
 * only and showing a certificate of the test's own authority, in front of PostgreSQL itself.
 */
describe("the TLS parameters of a database URL", () => {
  it("are taken out of the URL the driver gets, the others kept: postgres.js would send sslrootcert to the server as a setting", () => {
    const address = databaseAddress(`postgres://app:pw@db.example:6543/app?application_name=svc&sslmode=verify-full&sslrootcert=${import.meta.filename}&options=-c%20x%3Dy`);
    expect(address.url).toBe("postgres://app:pw@db.example:6543/app?application_name=svc&options=-c+x%3Dy");
    expect(address.mode).toBe("verify-full");
    expect(address.ssl).toMatchObject({ rejectUnauthorized: true, ca: expect.any(Buffer) });
  });

  it("are libpq's defaults when absent: prefer, unverified; require unverified; verify-ca and verify-full checked", () => {
    expect(databaseAddress("postgres://db/app")).toEqual({ url: "postgres://db/app", mode: "prefer", ssl: "prefer" });
    expect(databaseAddress("postgres://db/app?sslmode=require")).toEqual({ url: "postgres://db/app", mode: "require", ssl: "require" });
    expect(databaseAddress("postgres://db/app?sslmode=disable").ssl).toBe(false);
    expect(databaseAddress("postgres://db/app?sslmode=verify-ca&sslrootcert=system")).toMatchObject({ mode: "verify-ca", ssl: { rejectUnauthorized: true } });
    expect(databaseAddress("postgres://db/app?sslmode=verify-ca&sslrootcert=system").ssl).not.toHaveProperty("ca");
  });
});

if (server) describe("TLS to the database, by libpq's sslmode and sslrootcert", () => {
  let authority: TestAuthority;
  let stranger: TestAuthority;
  /** Its certificate names localhost and 127.0.0.1. */
  let named: Pgbouncer;
  /** Its certificate, of the same authority, names only db.invalid. */
  let misnamed: Pgbouncer;

  beforeAll(async () => {
    authority = makeTestAuthority("service");
    stranger = makeTestAuthority("stranger");
    [named, misnamed] = await Promise.all([
      startPgbouncer(server!, authority.issue("server", ["DNS:localhost", "IP:127.0.0.1"])),
      startPgbouncer(server!, authority.issue("elsewhere", ["DNS:db.invalid"])),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([named?.stop(), misnamed?.stop()]);
    authority?.remove();
    stranger?.remove();
  });

  /** Opens through `pooler` over TLS with these parameters (PostgreSQL itself beside it, as a pooled deployment has), runs a statement, closes. */
  async function openThrough(pooler: Pgbouncer, parameters: string, host = "127.0.0.1"): Promise<number> {
    const url = new URL(pooler.through(server!));
    url.hostname = host;
    const database = await openDatabase({ databaseUrl: `${url}?${parameters}`, directUrl: server, migrate: false, maxConnections: 1 });
    try {
      const [row] = await rows<{ n: number }>(database.db, sql`select 41 + 1 as n`);
      return row.n;
    } finally {
      await database.close();
    }
  }

  const refusal = (pattern: RegExp) => expect.objectContaining({ name: DatabaseUnreachable.name, message: expect.stringMatching(pattern) });

  it("verify-full: connects when the certificate is of the given authority and names the host, by name or by address", async () => {
    expect(await openThrough(named, `sslmode=verify-full&sslrootcert=${authority.caFile}`)).toBe(42);
    expect(await openThrough(named, `sslmode=verify-full&sslrootcert=${authority.caFile}`, "localhost")).toBe(42);
  });

  it("verify-full: refuses a certificate of another authority, and one that names another host", async () => {
    await expect(openThrough(named, `sslmode=verify-full&sslrootcert=${stranger.caFile}`)).rejects.toEqual(refusal(/unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/));
    await expect(openThrough(misnamed, `sslmode=verify-full&sslrootcert=${authority.caFile}`)).rejects.toEqual(refusal(/not in the cert's list.*ERR_TLS_CERT_ALTNAME_INVALID/));
  });

  it("verify-ca: takes a certificate of the authority whatever host it names, and refuses another authority's", async () => {
    expect(await openThrough(misnamed, `sslmode=verify-ca&sslrootcert=${authority.caFile}`)).toBe(42);
    await expect(openThrough(misnamed, `sslmode=verify-ca&sslrootcert=${stranger.caFile}`)).rejects.toEqual(refusal(/UNABLE_TO_VERIFY_LEAF_SIGNATURE/));
  });

  it("require: TLS without verification, as libpq; with sslrootcert it verifies the authority, as libpq", async () => {
    expect(await openThrough(misnamed, "sslmode=require")).toBe(42);
    await expect(openThrough(misnamed, `sslmode=require&sslrootcert=${stranger.caFile}`)).rejects.toEqual(refusal(/UNABLE_TO_VERIFY_LEAF_SIGNATURE/));
  });

  it("disable: a server that admits TLS clients only refuses the connection, said as the database's address to fix", async () => {
    await expect(openThrough(named, "sslmode=disable")).rejects.toEqual(refusal(/SSL required/));
  });

  it("prefer, and no sslmode: plain to a server without TLS; require and verify-full: refused, saying the server offers no TLS", async () => {
    for (const parameters of ["sslmode=prefer", ""]) {
      const database = await openDatabase({ databaseUrl: parameters ? `${server}?${parameters}` : server, migrate: false, maxConnections: 1 });
      await database.ping();
      await database.close();
    }
    await expect(openDatabase({ databaseUrl: `${server}?sslmode=require`, migrate: false, maxConnections: 1 })).rejects.toEqual(refusal(/sslmode=require needs a server that offers TLS/));
    await expect(openDatabase({ databaseUrl: `${server}?sslmode=verify-full&sslrootcert=${authority.caFile}`, migrate: false, maxConnections: 1 })).rejects.toEqual(
      refusal(/sslmode=verify-full needs a server that offers TLS/),
    );
  });

  it("verifies PostgreSQL's own address too: the connection that migrates and listens is held to the same sslmode", async () => {
    // The pooler stands in for PostgreSQL itself here: past a verified handshake, it refuses the settings a direct connection sends at its start.
    const direct = (ca: string) =>
      openDatabase({ databaseUrl: `${named.through(server!)}?sslmode=verify-full&sslrootcert=${ca}`, migrate: false, maxConnections: 1 }).then((opened) => opened.ping().finally(() => opened.close()));
    await expect(direct(stranger.caFile)).rejects.toEqual(refusal(/UNABLE_TO_VERIFY_LEAF_SIGNATURE/));
    await expect(direct(authority.caFile)).rejects.toThrow(/unsupported startup parameter/);
  });
});
