import * as drizzle from "drizzle-orm";
import { eq, getTableColumns, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { mapsWithRowMapper, rowMapper, type SelectedField } from "../../drizzle/row-mapping.js";
import { bookingEngines, organisations, products, suppliers } from "../../drizzle/schema.js";

// drizzle's own row mapping, exported by the package though its types leave it out.
const { mapResultRow, orderSelectedFields } = drizzle as unknown as {
  mapResultRow(fields: SelectedField[], row: unknown[], joinsNotNullableMap?: Record<string, boolean>): Record<string, unknown>;
  orderSelectedFields(fields: Record<string, unknown>): SelectedField[];
};

const fieldsOf = (selection: Record<string, unknown>) => orderSelectedFields(selection);

/** Raw values as the drivers hand them over in array mode: text timestamps, parsed json, nulls anywhere. */
function rawRow(fields: readonly SelectedField[], seed: number, nullEvery: number): unknown[] {
  return fields.map(({ field }, index) => {
    if ((index + seed) % nullEvery === 0) return null;
    const type = (field as { columnType?: string }).columnType;
    const sqlType = (field as { getSQLType?: () => string }).getSQLType?.() ?? "";
    if (type === "PgTimestamp" || sqlType.startsWith("timestamp")) return `2026-11-${10 + (seed % 10)} 08:30:00.123+00`;
    if (type === "PgJsonb") return { en: `text ${seed}`, de: `Text ${seed}` };
    if (type === "PgInteger" || type === "PgSerial" || type === "PgDoublePrecision") return seed * 7 + index;
    if (type === "PgBoolean") return seed % 2 === 0;
    return `value ${seed}-${index}`;
  });
}

describe("drizzle rows mapped once a statement", () => {
  const selections: [string, Record<string, unknown>][] = [
    ["every column of a table", getTableColumns(products)],
    ["columns and SQL with decoders", { id: products.id, title: products.title, count: sql<number>`count(*)`.mapWith(Number), plain: sql`1` }],
    ["joined tables as nested objects", { product: { id: products.id, title: products.title }, supplier: { id: suppliers.id, name: suppliers.name, creationDate: suppliers.creationDate }, engine: { id: bookingEngines.id, name: bookingEngines.name } }],
  ];
  const joins = [undefined, { products: true, suppliers: false, booking_engines: false }, { products: true, suppliers: true, booking_engines: true }];

  for (const [name, selection] of selections) {
    it(`answers what drizzle's mapResultRow answers: ${name}`, () => {
      const table = fieldsOf(selection);
      const map = rowMapper(table);
      for (const joinsNotNullableMap of joins) {
        for (const nullEvery of [1, 2, 3, 1000]) {
          const rows = Array.from({ length: 6 }, (_, seed) => rawRow(table, seed, nullEvery));
          const expected = rows.map((row) => mapResultRow(table, row, joinsNotNullableMap));
          const actual = map(rows, joinsNotNullableMap);
          expect(actual).toStrictEqual(expected);
          // Same keys in the same order: records are serialised as they are.
          expect(actual.map((row) => JSON.stringify(row))).toEqual(expected.map((row) => JSON.stringify(row)));
        }
      }
    });
  }

  describe.each([["PGlite", undefined], ...(process.env.DATABASE_URL ? [["PostgreSQL", process.env.DATABASE_URL]] : [])] as [string, string | undefined][])("through %s", (_, databaseUrl) => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl, dataDir: "memory" });
    }, 60_000);
    afterAll(() => database?.close());

    it("maps every select the service runs with it, decoding as drizzle does, and leaves a left join's missing table null", async () => {
      const query = database.db
        .select({ id: organisations.id, name: organisations.name, createdAt: organisations.createdAt, engine: { id: bookingEngines.id, name: bookingEngines.name } })
        .from(organisations)
        .leftJoin(bookingEngines, eq(bookingEngines.id, sql`-1`))
        .limit(3);
      expect(mapsWithRowMapper((query as unknown as { _prepare(): unknown })._prepare())).toBe(true);
      const name = `Row mapping ${Date.now()}`;
      await database.db.insert(organisations).values({ name, countryCode: "CH", commercialModel: "AGENT" });
      const found = await database.db
        .select({ id: organisations.id, name: organisations.name, createdAt: organisations.createdAt, engine: { id: bookingEngines.id, name: bookingEngines.name } })
        .from(organisations)
        .leftJoin(bookingEngines, eq(bookingEngines.id, sql`-1`))
        .where(eq(organisations.name, name));
      expect(found).toHaveLength(1);
      expect(found[0].name).toBe(name);
      expect(found[0].createdAt).toBeInstanceOf(Date);
      expect(Math.abs(found[0].createdAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(found[0].engine).toBeNull();
    });
  });
});
