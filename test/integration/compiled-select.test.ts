import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyOf, compiledSelect } from "../../drizzle/compiled-select.js";
import { openDatabase, type Database, type Executor } from "../../drizzle/database.js";
import { bookingEngines, organisations } from "../../drizzle/schema.js";

describe.each([["PGlite", undefined], ...(process.env.DATABASE_URL ? [["PostgreSQL", process.env.DATABASE_URL]] : [])] as [string, string | undefined][])(
  "selects built once, on %s",
  (_, databaseUrl) => {
    let database: Database;
    const ids: number[] = [];
    const tag = `Compiled ${Date.now()}`;
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl, dataDir: "memory" });
      for (const [index, country] of ["CH", "FR", "DE"].entries()) {
        const [row] = await database.db.insert(organisations).values({ name: `${tag} ${index}`, countryCode: country, commercialModel: "AGENT" }).returning();
        ids.push(row.id);
      }
    }, 60_000);
    afterAll(() => database?.close());

    it("answers what the builder answers, for lists of any length, with one text for all of them", async () => {
      let builds = 0;
      const byIds = compiledSelect<{ ids: number[]; country: string }, typeof organisations.$inferSelect>((db) => {
        builds++;
        return db.select().from(organisations).where(and(anyOf(organisations.id, "ids"), sql`${organisations.countryCode} <> ${sql.placeholder("country")}`));
      });
      for (const some of [ids.slice(0, 1), ids, [...ids, -1], []]) {
        const expected = some.length ? await database.db.select().from(organisations).where(and(inArray(organisations.id, some), sql`${organisations.countryCode} <> 'DE'`)) : [];
        const found = await byIds(database.db, { ids: some, country: "DE" });
        expect(found.sort((a, b) => a.id - b.id)).toEqual(expected.sort((a, b) => a.id - b.id));
      }
      expect(builds).toBe(1);
      expect((await byIds(database.db, { ids, country: "DE" }))[0].createdAt).toBeInstanceOf(Date);
    });

    it("runs in the transaction it is given: it sees the transaction's own writes, and nothing of them once it rolls back", async () => {
      const byIds = compiledSelect<{ ids: number[] }, { id: number; name: string }>((db) => db.select({ id: organisations.id, name: organisations.name }).from(organisations).where(anyOf(organisations.id, "ids")));
      const rename = async (tx: Executor) => {
        await tx.update(organisations).set({ name: `${tag} renamed` }).where(eq(organisations.id, ids[0]));
        expect((await byIds(tx, { ids: [ids[0]] }))[0].name).toBe(`${tag} renamed`);
        throw new Error("roll back");
      };
      await expect(database.db.transaction(rename)).rejects.toThrow("roll back");
      expect((await byIds(database.db, { ids: [ids[0]] }))[0].name).toBe(`${tag} 0`);
    });

    it("maps joined tables as the builder does, a left join's missing row as null", async () => {
      const withEngine = compiledSelect<{ ids: number[] }, { id: number; engine: { id: number; name: string } | null }>((db) =>
        db.select({ id: organisations.id, engine: { id: bookingEngines.id, name: bookingEngines.name } }).from(organisations).leftJoin(bookingEngines, eq(bookingEngines.id, organisations.bookingEngineId)).where(anyOf(organisations.id, "ids")),
      );
      const found = await withEngine(database.db, { ids });
      expect(found).toHaveLength(3);
      expect(found.every((row) => row.engine === null)).toBe(true);
    });
  },
);
