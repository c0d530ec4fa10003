import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";
import { PgliteSession } from "drizzle-orm/pglite/session";
import { PostgresJsSession } from "drizzle-orm/postgres-js/session";
import { sessionTakes } from "./database-shortcuts.js";

/** A selected field as drizzle orders them (`orderSelectedFields`): where it goes in the row object, and what decodes it. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

type Row = Record<string, unknown>;

/**
 * drizzle's `mapResultRow`, with what it works out for every row of every statement worked out
 * once a statement: each column's decoder, and the table a joined object's first column comes
 * from. drizzle's own checks each field's class and walks its path with an iterator on every
 * row; a search page of 100 wide products spent 935 kB of allocation a page on it (a fifth of the
 * page's), and drizzle's class checks were 4 % of the page's CPU. The answer is the same, key for
 * key and in the same order: test/integration/row-mapping.test.ts holds the two equal.
 */
export function rowMapper(fields: readonly SelectedField[]): (rows: readonly unknown[][], joinsNotNullableMap?: Record<string, boolean>) => Row[] {
  const count = fields.length;
  const paths = fields.map((selected) => selected.path);
  // `decoder` is drizzle's own (internal) member of its SQL objects.
  const decoderOf = (value: unknown) => (value as { decoder: Decoder }).decoder;
  const decoders = fields.map(({ field }): Decoder => {
    if (is(field, Column)) return field;
    if (is(field, SQL)) return decoderOf(field);
    if (is(field, Subquery)) return decoderOf((field as unknown as { _: { sql: SQL } })._.sql);
    return decoderOf((field as { sql: SQL }).sql);
  });
  // A left join's selected table comes back null when the first of its columns is null.
  const joinedTables = fields.map(({ path, field }) => (is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined));
  const flat = paths.every((path) => path.length === 1);
  const keys = paths.map((path) => path[0]);

  const mapRow = (row: readonly unknown[], joinsNotNullableMap: Record<string, boolean> | undefined): Row => {
    const result: Row = {};
    if (flat && !joinsNotNullableMap) {
      for (let index = 0; index < count; index++) {
        const raw = row[index];
        result[keys[index]] = raw === null ? null : decoders[index].mapFromDriverValue(raw);
      }
      return result;
    }
    let nullify: Record<string, string | false> | undefined;
    for (let index = 0; index < count; index++) {
      const raw = row[index];
      const value = raw === null ? null : decoders[index].mapFromDriverValue(raw);
      const path = paths[index];
      let node = result;
      for (let chunk = 0; chunk < path.length - 1; chunk++) {
        if (!(path[chunk] in node)) node[path[chunk]] = {};
        node = node[path[chunk]] as Row;
      }
      node[path[path.length - 1]] = value;
      const table = joinedTables[index];
      if (joinsNotNullableMap && table !== undefined) {
        nullify ??= {};
        const objectName = path[0];
        if (!(objectName in nullify)) nullify[objectName] = value === null ? table : false;
        else if (typeof nullify[objectName] === "string" && nullify[objectName] !== table) nullify[objectName] = false;
      }
    }
    if (joinsNotNullableMap && nullify) {
      for (const [objectName, table] of Object.entries(nullify)) if (typeof table === "string" && !joinsNotNullableMap[table]) result[objectName] = null;
    }
    return result;
  };
  return (rows, joinsNotNullableMap) => rows.map((row) => mapRow(row, joinsNotNullableMap));
}

interface PreparedQuery {
  customResultMapper?: (rows: unknown[][]) => unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

type PrepareQuery = (this: unknown, query: unknown, fields: SelectedField[] | undefined, name: unknown, arrayMode: unknown, customResultMapper: unknown, ...rest: unknown[]) => PreparedQuery;

let installed = false;
/** Mappers by drizzle's fields array: a compiled select (compiled-select.ts) hands the same one at every call. */
const mappers = new WeakMap<readonly SelectedField[], ReturnType<typeof rowMapper>>();
/** Results mapped here in this process (tests read it: a database with row mapping off must add none). */
const counts = { mapped: 0 };

/**
 * Both drivers' sessions hand every statement that selects fields a result mapper of rowMapper's
 * making. drizzle's prepared queries use a `customResultMapper` instead of `mapResultRow` when
 * they have one (its relational queries bring their own, left alone); the join map is read when
 * the rows arrive, since drizzle sets it after preparing. A session of a database opened with row
 * mapping off (database-shortcuts.ts) keeps drizzle's `mapResultRow`.
 */
export function installRowMapping(): void {
  if (installed) return;
  installed = true;
  for (const prototype of [PostgresJsSession.prototype, PgliteSession.prototype] as unknown as { prepareQuery: PrepareQuery }[]) {
    const prepareQuery = prototype.prepareQuery;
    prototype.prepareQuery = function (query, fields, name, arrayMode, customResultMapper, ...rest) {
      const prepared = prepareQuery.call(this, query, fields, name, arrayMode, customResultMapper, ...rest);
      if (fields && !customResultMapper && sessionTakes(this, "row-mapping")) {
        let map = mappers.get(fields);
        if (!map) mappers.set(fields, (map = rowMapper(fields)));
        prepared.customResultMapper = (rows) => {
          counts.mapped++;
          return map!(rows, prepared.joinsNotNullableMap);
        };
      }
      return prepared;
    };
  }
}

/** How many results rowMapper mapped in this process. */
export function rowMappingCounts(): { mapped: number } {
  return { ...counts };
}

/** Whether a statement prepared on this session maps its rows with rowMapper (for tests). */
export function mapsWithRowMapper(prepared: unknown): boolean {
  return typeof (prepared as PreparedQuery).customResultMapper === "function";
}
