import { getTableColumns, getTableName, sql, type AnyColumn, type SQL, type Table } from "drizzle-orm";
import type { Executor } from "./database.js";
import { sessionTakes } from "./database-shortcuts.js";
import type { SelectedField } from "./row-mapping.js";

/** What drizzle's select builders keep once prepared: the text, its parameters (placeholders among them) and the selected fields. */
interface BuiltSelect {
  queryString: string;
  params: unknown[];
  fields: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
}

interface Session {
  prepareQuery(query: { sql: string; params: unknown[] }, fields: SelectedField[], name: undefined, isResponseInArrayMode: boolean): BuiltSelect & { execute(values: Record<string, unknown>): Promise<unknown[]> };
}

/** A select builder, before it runs (drizzle's `_prepare` is its own, untyped, member). */
type SelectBuilder<Row> = PromiseLike<Row[]>;

/** Statements run from a text built once, and built by drizzle at the call (tests read it: a database with compiled statements off must run none built once). */
const counts = { compiled: 0, plain: 0 };

export function compiledStatementCounts(): { compiled: number; plain: number } {
  return { ...counts };
}

/**
 * A select whose SQL drizzle builds once per process instead of at every call. Building is most of
 * what drizzle costs a short statement: a product read's five statements spent 17 % of the
 * request's CPU in drizzle, most of it walking the selections of wide rows and checking each
 * part's class, for the same text every time. The statement is written once with
 * `sql.placeholder(name)` for its values and built on first use; each call then hands the built
 * text to the session of the executor it is given (the pool, or a transaction), which runs and
 * maps it as it would have run the builder's own.
 *
 * Only for statements whose text never varies: no optional conditions, no lists expanded into one
 * placeholder each (`anyOf` takes a list as one array parameter).
 *
 * On a database opened with compiled statements off (database-shortcuts.ts), each call builds the
 * statement and runs it with drizzle's own `execute(values)`, as drizzle's API has it.
 */
export function compiledSelect<Values extends Record<string, unknown>, Row>(build: (db: Executor) => SelectBuilder<Row>): (executor: Executor, values: Values) => Promise<Row[]> {
  let built: BuiltSelect | undefined;
  return async (executor, values) => {
    if (!sessionTakes(sessionOf(executor), "compiled-statements")) return builtAtTheCall<Row>(build(executor), values);
    built ??= builtOf(build(executor));
    return runBuilt<Row>(executor, built, values);
  };
}

function builtOf(builder: unknown): BuiltSelect {
  const prepared = (builder as { _prepare(): BuiltSelect })._prepare();
  return { queryString: prepared.queryString, params: prepared.params, fields: prepared.fields, joinsNotNullableMap: prepared.joinsNotNullableMap };
}

const sessionOf = (executor: Executor) => (executor as unknown as { session: Session }).session;

/** drizzle's own way with a statement of placeholders: built at this call, run with the values. */
async function builtAtTheCall<Row>(builder: unknown, values: Record<string, unknown>): Promise<Row[]> {
  counts.plain++;
  return (await (builder as { execute(values: Record<string, unknown>): Promise<unknown> }).execute(values)) as Row[];
}

async function runBuilt<Row>(executor: Executor, built: BuiltSelect, values: Record<string, unknown>): Promise<Row[]> {
  counts.compiled++;
  const session = sessionOf(executor);
  const query = session.prepareQuery({ sql: built.queryString, params: built.params }, built.fields, undefined, true);
  query.joinsNotNullableMap = built.joinsNotNullableMap;
  return (await query.execute(values)) as Row[];
}

/** Statement shapes a compiled write keeps; past them, it builds each call as drizzle would. */
const WRITE_SHAPES_KEPT = 32;

/**
 * An insert or update whose SQL drizzle builds once per shape of what it writes (the columns given
 * a value), not at every call: building a booking step's updates and inserts, with their wide
 * `returning` lists, was about 5 % of a booking flow's CPU. `build` gets one placeholder per
 * column written, to pass to `.values()` or `.set()`; column encoders (jsonb, timestamps) still
 * apply to each call's values. Keys whose value is undefined are left out, as drizzle leaves them.
 *
 * Refused for tables with column hooks (`$defaultFn`, `$onUpdate`): drizzle runs those while
 * building, so a built statement would repeat the first call's value. Past the shapes kept, and on
 * a database with compiled statements off, each call is built and run as drizzle's `execute(values)` runs it.
 */
export function compiledWrite<Written extends Record<string, unknown>, Values extends Record<string, unknown>, Row>(
  table: Table,
  build: (db: Executor, written: Record<string, unknown>) => PromiseLike<Row[] | unknown>,
): (executor: Executor, written: Written, values: Values) => Promise<Row[]> {
  const hooked = Object.values(getTableColumns(table)).filter((column) => column.defaultFn || column.onUpdateFn);
  if (hooked.length) throw new Error(`compiledWrite: ${getTableName(table)}.${hooked[0].name} has a column hook, which building would freeze`);
  const shapes = new Map<string, BuiltSelect>();
  return async (executor, written, values) => {
    if (!sessionTakes(sessionOf(executor), "compiled-statements")) return builtAtTheCall<Row>(build(executor, written), values);
    const keys = Object.keys(written).filter((key) => written[key] !== undefined).sort();
    // A null is written as NULL in the text: drizzle's placeholders would hand it to the column's
    // encoder, which turns it into JSON's null or fails on it.
    const shape = keys.map((key) => (written[key] === null ? `${key}=null` : key)).join(",");
    let built = shapes.get(shape);
    if (!built) {
      if (shapes.size >= WRITE_SHAPES_KEPT) return builtAtTheCall<Row>(build(executor, written), values);
      built = builtOf(build(executor, Object.fromEntries(keys.map((key) => [key, written[key] === null ? null : sql.placeholder(`written.${key}`)]))));
      shapes.set(shape, built);
    }
    const all: Record<string, unknown> = { ...values };
    for (const key of keys) if (written[key] !== null) all[`written.${key}`] = written[key];
    return runBuilt<Row>(executor, built, all);
  };
}

/** `column = any($n)`: a list of values as one array parameter, so that a statement's text is the same for every length of list. */
export const anyOf = (column: AnyColumn, placeholder: string): SQL => sql`${column} = any(${sql.placeholder(placeholder)})`;
