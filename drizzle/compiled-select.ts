import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Executor } from "./database.js";
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
 */
export function compiledSelect<Values extends Record<string, unknown>, Row>(build: (db: Executor) => SelectBuilder<Row>): (executor: Executor, values: Values) => Promise<Row[]> {
  let built: BuiltSelect | undefined;
  return async (executor, values) => {
    if (!built) {
      const prepared = (build(executor) as unknown as { _prepare(): BuiltSelect })._prepare();
      built = { queryString: prepared.queryString, params: prepared.params, fields: prepared.fields, joinsNotNullableMap: prepared.joinsNotNullableMap };
    }
    const session = (executor as unknown as { session: Session }).session;
    const query = session.prepareQuery({ sql: built.queryString, params: built.params }, built.fields, undefined, true);
    query.joinsNotNullableMap = built.joinsNotNullableMap;
    return (await query.execute(values)) as Row[];
  };
}

/** `column = any($n)`: a list of values as one array parameter, so that a statement's text is the same for every length of list. */
export const anyOf = (column: AnyColumn, placeholder: string): SQL => sql`${column} = any(${sql.placeholder(placeholder)})`;
