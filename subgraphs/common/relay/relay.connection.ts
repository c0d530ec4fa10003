import { ArgsType, type ClassType, Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";
import { badInput } from "../../../core/errors.js";
import { serialKey } from "../../../core/global-id.js";

/**
 * Relay cursor connections (docs/graph-design.md, "Lists: connections"): the shared types, the
 * paging arguments' one check, and keyset pages. A connection's own module declares its classes
 * with `ConnectionOf(Node)` / `EdgeOf(Node)` and builds its answer with `connectionFrom`.
 */

export enum CountPrecision {
  EXACT = "EXACT",
  AT_LEAST = "AT_LEAST",
  ESTIMATED = "ESTIMATED",
}
registerEnumType(CountPrecision, {
  name: "CountPrecision",
  description: "How exact a count is",
  valuesConfig: {
    EXACT: { description: "The count is exact" },
    AT_LEAST: { description: "Counting stopped at a cap: there are at least this many" },
    ESTIMATED: { description: "More matched than are counted exactly: the database's estimate, never below what the pages read so far prove" },
  },
});

export enum OrderDirection {
  ASC = "ASC",
  DESC = "DESC",
}
registerEnumType(OrderDirection, {
  name: "OrderDirection",
  description: "The direction of an ordering",
  valuesConfig: { ASC: { description: "Smallest (or oldest) first" }, DESC: { description: "Largest (or newest) first" } },
});

@Directive("@shareable")
@ObjectType({ description: "How many items a whole list holds, and whether that is exact or a lower bound" })
export class TotalCount {
  @Field(() => Int, { description: "The number counted" }) count!: number;
  @Field(() => CountPrecision, { description: "EXACT, or AT_LEAST when counting stopped at a cap" }) precision!: CountPrecision;
}

@Directive("@shareable")
@ObjectType({ description: "Where a page of a connection sits in the whole list (Relay Cursor Connections)" })
export class PageInfo {
  @Field(() => Boolean, { description: "Items follow this page: ask with `after: endCursor`" }) hasNextPage!: boolean;
  @Field(() => Boolean, { description: "Items precede this page: ask with `before: startCursor`" }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: "The first item's cursor; null on an empty page" }) startCursor?: string | null;
  @Field(() => String, { nullable: true, description: "The last item's cursor; null on an empty page" }) endCursor?: string | null;
}

/** One connection's answer; `totalCount` is counted only when a client asks for it. */
export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: PromiseLike<TotalCount>;
}

/**
 * A value worked out only when something awaits it: GraphQL awaits a field's value only when the
 * operation selects the field, so a count nobody asked for costs no statement.
 */
export function whenAsked<T>(work: () => Promise<T>): PromiseLike<T> {
  let started: Promise<T> | undefined;
  return {
    then: (onFulfilled, onRejected) => {
      started ??= work();
      return started.then(onFulfilled, onRejected);
    },
  };
}

/** `XEdge { cursor, node }` for a node type. */
export function EdgeOf<T extends object>(node: ClassType<T>) {
  @ObjectType()
  abstract class Edge {
    @Field(() => String, { description: "This item's position, for `after` or `before`" }) cursor!: string;
    @Field(() => node, { description: "The item" }) node!: T;
  }
  return Edge;
}

/** `XConnection { edges, nodes, pageInfo, totalCount }` for a node type and its edge type. */
export function ConnectionOf<T extends object, E extends object>(node: ClassType<T>, edge: ClassType<E>) {
  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [edge], { description: "The page's items with their cursors" }) edges!: E[];
    @Field(() => [node], { description: "The page's items, for clients that need no cursors" }) nodes!: T[];
    @Field(() => PageInfo, { description: "Whether items precede or follow this page" }) pageInfo!: PageInfo;
    @Field(() => TotalCount, { description: "How many items the whole list holds (not only this page)" }) totalCount!: TotalCount;
  }
  return ConnectionType;
}

/** `first`/`after`/`last`/`before` of a connection of `items` ("products"), described in its words. */
export function PagingArgsOf(items: string) {
  const Items = items[0].toUpperCase() + items.slice(1);
  @ArgsType()
  abstract class PagingArgs implements PagingArguments {
    @Field(() => Int, { nullable: true, description: `${Items} after \`after\`` }) first?: number | null;
    @Field(() => String, { nullable: true, description: `A cursor: the ${items} after it` }) after?: string | null;
    @Field(() => Int, { nullable: true, description: `${Items} before \`before\`` }) last?: number | null;
    @Field(() => String, { nullable: true, description: `A cursor: the ${items} before it` }) before?: string | null;
  }
  return PagingArgs;
}

/** The page a connection answers when neither `first` nor `last` is given. */
export const DEFAULT_PAGE_SIZE = 20;

/** The four paging arguments as every connection takes them. */
export interface PagingArguments {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** One page to read: how many, which way, from which position (decoded by the connection's own cursor codec). */
export interface PageRequest<P> {
  size: number;
  direction: "forward" | "backward";
  position: P | null;
}

/**
 * The paging arguments checked once for every connection: `first` and `last` are not given
 * together, each is 0 to the connection's largest page, and a cursor must be one this connection
 * gave. Refusals are BAD_USER_INPUT naming the argument.
 */
export function pageRequest<P>(args: PagingArguments, largest: number, decode: (cursor: string) => P | null, defaultSize = DEFAULT_PAGE_SIZE): PageRequest<P> {
  const { first, after, last, before } = args;
  if (first != null && last != null) throw badInput("Give first or last, not both", [{ field: "last", rule: "exclusive", message: "not together with first" }]);
  if (after != null && before != null) throw badInput("Give after or before, not both", [{ field: "before", rule: "exclusive", message: "not together with after" }]);
  for (const [name, value] of [["first", first], ["last", last]] as const) {
    if (value != null && (!Number.isInteger(value) || value < 0 || value > largest)) {
      throw badInput(`${name} must be 0 to ${largest}`, [{ field: name, rule: "range", message: `0 to ${largest}` }]);
    }
  }
  const backward = last != null || (before != null && first == null);
  const cursorName = backward ? "before" : "after";
  const cursor = backward ? before : after;
  let position: P | null = null;
  if (cursor != null) {
    position = decode(cursor);
    if (position === null) throw badInput(`${cursorName} is not a cursor of this list`, [{ field: cursorName, rule: "cursor", message: "a cursor this list gave" }]);
  }
  return { size: (backward ? last : first) ?? defaultSize, direction: backward ? "backward" : "forward", position };
}

/** A cursor as the base64url of a JSON value, and back (null for anything that is not one). */
export const cursorCodec = {
  encode: (position: unknown): string => Buffer.from(JSON.stringify(position), "utf8").toString("base64url"),
  decode: (cursor: string): unknown => {
    if (typeof cursor !== "string" || cursor.length > 500 || !/^[A-Za-z0-9_-]*$/.test(cursor)) return null;
    try {
      return JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    } catch {
      return null;
    }
  },
};

/**
 * A cursor that holds a position rather than a key: the items after the first `offset`. REST's
 * numbered pages (`pageNumber`, `resultsPerPage`) run on connections that accept it beside their
 * keyset cursors; the edges they answer carry keyset cursors as always.
 */
export const offsetCursor = (offset: number): string => cursorCodec.encode({ offset });

/** The offset a decoded cursor holds, or null when it is not an offset cursor. */
export function offsetOf(position: unknown): number | null {
  if (typeof position !== "object" || position === null || Array.isArray(position)) return null;
  const { offset, ...rest } = position as { offset?: unknown };
  return Object.keys(rest).length === 0 && Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : null;
}

/**
 * The cursor decoder of a connection that takes offset cursors beside its keyset ones: an offset,
 * or the key `decodeKey` reads from a decoded keyset cursor (null for anything else).
 */
export function keyOrOffset<K extends object>(decodeKey: (position: unknown) => K | null): (cursor: string) => K | { offset: number } | null {
  return (cursor) => {
    const position = cursorCodec.decode(cursor);
    const offset = offsetOf(position);
    return offset !== null ? { offset } : decodeKey(position);
  };
}

/**
 * The slice of a ranked list a request asks for, when its cursors are positions (offsetCursor: the
 * edge at position n carries "after the first n + 1"). `total` is the list's length where it is
 * known: without it, paging back needs `before`, since the end of the list is not known.
 */
export function positionSlice(args: PagingArguments, largest: number, total: number | null, defaultSize = DEFAULT_PAGE_SIZE): { start: number; size: number; forward: boolean } {
  const page = pageRequest(args, largest, (cursor) => {
    const offset = offsetOf(cursorCodec.decode(cursor));
    return offset === null ? null : { offset };
  }, defaultSize);
  if (page.direction === "forward") return { start: page.position?.offset ?? 0, size: page.size, forward: true };
  if (!page.position && total === null) throw badInput("last pages back from an edge: give before", [{ field: "before", rule: "required", message: "a cursor of an edge this list gave, to page back from" }]);
  const end = page.position ? Math.max(0, page.position.offset - 1) : total!;
  const start = Math.max(0, end - page.size);
  return { start, size: end - start, forward: false };
}

/** A page of a ranked list, read from `start`: its rows, whether rows follow and precede it, and its count when known. */
export interface PositionPage<R> {
  rows: R[];
  start: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  total: TotalCount | null;
}

/** A page of a ranked list as a connection, each edge made from its row and its position cursor. */
export function positionConnection<R, N, E extends { cursor: string; node: N }>(page: PositionPage<R>, toEdge: (row: R, cursor: string) => E): Connection<N> & { edges: E[] } {
  const edges = page.rows.map((row, index) => toEdge(row, offsetCursor(page.start + index + 1)));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    // Counted with the page when the operation asked for it (or known from the ranking), so there is nothing left to do here.
    totalCount: whenAsked(async () => page.total ?? { count: 0, precision: CountPrecision.EXACT }),
  };
}

/** The cursor decoder of a list ordered by a numbered key: beyond a number (`[id]`, what its edges give), or past an offset. */
export const serialPosition = keyOrOffset((position) => {
  if (!Array.isArray(position) || position.length !== 1) return null;
  const id = serialKey(typeof position[0] === "number" ? String(position[0]) : null);
  return id === null ? null : { id };
});

/** The cursor of a row of a list ordered by a numbered key. */
export const serialCursor = (row: { id: number }): string => cursorCodec.encode([row.id]);

/** The request's offset, when its cursor is an offset cursor; only `after` may be one (a page is read forward from it). */
export function offsetOfRequest(request: PageRequest<object | null>): number | null {
  const { position } = request;
  if (!position || !("offset" in position)) return null;
  if (request.direction === "backward") throw badInput("before takes a cursor of an edge, not an offset", [{ field: "before", rule: "cursor", message: "a cursor of an edge this list gave" }]);
  return position.offset as number;
}

/**
 * A keyset page as a connection: `rows` are up to `size + 1` rows read from the position in the
 * request's direction (the extra row only says that more follow). Backward pages are read
 * nearest first and turned around here, so that edges are always in the list's order.
 * Paging forward after a cursor, items precede the page; paging backward before one, items follow
 * it (Relay allows answering these from the cursor alone, which costs no statement).
 */
export function connectionFrom<R, T>(request: PageRequest<unknown>, rows: R[], toNode: (row: R) => T, cursorOf: (row: R) => string, totalCount: () => Promise<TotalCount>): Connection<T> {
  const more = rows.length > request.size;
  const page = rows.slice(0, request.size);
  if (request.direction === "backward") page.reverse();
  const edges = page.map((row) => ({ cursor: cursorOf(row), node: toNode(row) }));
  const forward = request.direction === "forward";
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: forward ? more : request.position !== null,
      hasPreviousPage: forward ? request.position !== null : more,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: whenAsked(totalCount),
  };
}

/** Counts up to `cap` rows: EXACT below it, AT_LEAST at it. `countUpTo` reads at most cap + 1. */
export async function cappedCount(cap: number, countUpTo: (limit: number) => Promise<number>): Promise<TotalCount> {
  const counted = await countUpTo(cap + 1);
  return counted > cap ? { count: cap, precision: CountPrecision.AT_LEAST } : { count: counted, precision: CountPrecision.EXACT };
}
