import { and, eq, inArray, sql } from "drizzle-orm";
import { jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anyOf, compiledSelect, compiledWrite } from "../../drizzle/compiled-select.js";
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

describe.each([["PGlite", undefined], ...(process.env.DATABASE_URL ? [["PostgreSQL", process.env.DATABASE_URL]] : [])] as [string, string | undefined][])(
  "writes built once a shape, on %s",
  (_, databaseUrl) => {
    // A table of the test's own: a nullable jsonb and timestamp are where placeholders could go wrong.
    const name = `compiled_write_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const probe = pgTable(name, {
      id: serial("id").primaryKey(),
      label: text("label").notNull(),
      data: jsonb("data").$type<Record<string, unknown>>(),
      at: timestamp("at", { withTimezone: true }),
      note: text("note").default("none"),
    });
    type ProbeRow = typeof probe.$inferSelect;
    let database: Database;
    let builds = 0;
    const insert = compiledWrite<typeof probe.$inferInsert, Record<string, never>, ProbeRow>(probe, (db, row) => {
      builds++;
      return db.insert(probe).values(row as typeof probe.$inferInsert).returning();
    });
    const update = compiledWrite<Partial<ProbeRow>, { id: number }, ProbeRow>(probe, (db, patch) => {
      builds++;
      return db.update(probe).set(patch).where(eq(probe.id, sql.placeholder("id"))).returning();
    });
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl, dataDir: "memory" });
      await database.db.execute(sql.raw(`create table "${name}" (id serial primary key, label text not null, data jsonb, at timestamptz, note text default 'none')`));
    }, 60_000);
    afterAll(async () => {
      await database?.db.execute(sql.raw(`drop table if exists "${name}"`));
      await database?.close();
    });
    /** SQL's NULL, not JSON's null (which jsonb would also show as null once read). */
    const isSqlNull = async (id: number) => (await database.db.select({ missing: sql<boolean>`${probe.data} is null` }).from(probe).where(eq(probe.id, id)))[0].missing;

    it("inserts and updates as the builder does, each call's values encoded (jsonb, timestamps), defaults for what is not given", async () => {
      const at = new Date("2026-11-26T10:00:00.000Z");
      const [first] = await insert(database.db, { label: "one", data: { a: [1, 2] }, at }, {});
      expect(first).toMatchObject({ label: "one", data: { a: [1, 2] }, at, note: "none" });
      const [second] = await insert(database.db, { label: "two", data: { b: true }, at: new Date(at.getTime() + 1000) }, {});
      expect(second).toMatchObject({ label: "two", data: { b: true }, note: "none" });
      expect(second.at?.toISOString()).toBe("2026-11-26T10:00:01.000Z");
      const [changed] = await update(database.db, { data: { c: "x" } }, { id: first.id });
      expect(changed).toEqual({ ...first, data: { c: "x" } });
      expect(builds).toBe(2);
      const read = await database.db.select().from(probe).where(inArray(probe.id, [first.id, second.id]));
      expect(read.sort((a, b) => a.id - b.id)).toEqual([changed, second]);
    });

    it("writes a null as SQL NULL, not as JSON's null, and leaves out keys whose value is undefined", async () => {
      const [row] = await insert(database.db, { label: "nulls", data: null, at: null, note: undefined }, {});
      expect(row).toMatchObject({ data: null, at: null, note: "none" });
      expect(await isSqlNull(row.id)).toBe(true);
      const [kept] = await update(database.db, { data: { d: 1 }, label: undefined }, { id: row.id });
      expect(kept).toMatchObject({ label: "nulls", data: { d: 1 } });
      const [cleared] = await update(database.db, { data: null }, { id: row.id });
      expect(cleared.data).toBeNull();
      expect(await isSqlNull(row.id)).toBe(true);
    });

    it("builds once for each set of columns written, and runs in the transaction it is given", async () => {
      const [row] = await insert(database.db, { label: "shapes" }, {});
      const before = builds;
      await update(database.db, { label: "a", note: "x" }, { id: row.id });
      await update(database.db, { note: "y", label: "b" }, { id: row.id });
      expect(builds - before).toBe(1);
      await expect(
        database.db.transaction(async (tx) => {
          await update(tx, { label: "rolled back" }, { id: row.id });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect((await database.db.select().from(probe).where(eq(probe.id, row.id)))[0]).toMatchObject({ label: "b", note: "y" });
    });

    it("is refused for a table whose columns compute values while building", () => {
      const hooked = pgTable("hooked", { id: serial("id").primaryKey(), stamp: text("stamp").$defaultFn(() => String(Date.now())) });
      expect(() => compiledWrite(hooked, (db, row) => db.insert(hooked).values(row as typeof hooked.$inferInsert).returning())).toThrow(/hooked.stamp has a column hook/);
    });
  },
);
