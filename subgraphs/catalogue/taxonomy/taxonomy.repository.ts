import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../../drizzle/database.js";
import { productTaxonomies, taxonomyNodes } from "../../../drizzle/schema.js";
import { TAXONOMY_FAMILY, TAXONOMY_START_DATE, taxonomySeed } from "./taxonomy.data.js";

export type TaxonomyNodeRow = typeof taxonomyNodes.$inferSelect;

/** Slug rule of spec 3: family, level 1 and level 2 joined by hyphens, lower case, punctuation as hyphens. */
export function slugOf(...parts: string[]): string {
  return parts
    .map((part) => part.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("-");
}

/** Stable ids across installs, so that consumers' local copies keep their keys (a name-based UUID, RFC 9562 version 5 layout). */
export function nodeUuid(slug: string, version = 1): string {
  const hash = createHash("sha1").update(`${TAXONOMY_FAMILY}:${slug}:${version}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const taxonomyRepository = {
  /** Writes the shipped taxonomy; re-running it updates names and adds new nodes, never duplicates. */
  async ensureSeed(db: Executor): Promise<void> {
    const rows: (typeof taxonomyNodes.$inferInsert)[] = [];
    for (const parent of taxonomySeed) {
      const parentSlug = slugOf(TAXONOMY_FAMILY, parent.name.en);
      const parentUuid = nodeUuid(parentSlug);
      rows.push({ uuid: parentUuid, family: TAXONOMY_FAMILY, level: 1, code: parent.code, parentUuid: null, slug: parentSlug, name: parent.name, startDate: TAXONOMY_START_DATE });
      for (const child of parent.children) {
        const slug = slugOf(TAXONOMY_FAMILY, parent.name.en, child.name.en);
        rows.push({ uuid: nodeUuid(slug), family: TAXONOMY_FAMILY, level: 2, code: child.code, parentUuid, slug, name: child.name, startDate: TAXONOMY_START_DATE });
      }
    }
    // Processes starting together on a new database seed one after another: the second then finds
    // the first's rows by uuid. Side by side, a row the first has not committed yet is not seen as
    // that conflict, and the second fails on the (slug, version) key instead.
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('taxonomy_nodes seed'))`);
      await tx
        .insert(taxonomyNodes)
        .values(rows)
        .onConflictDoUpdate({ target: taxonomyNodes.uuid, set: { name: sql`excluded.name`, code: sql`excluded.code`, slug: sql`excluded.slug` } });
    });
  },

  async currentByCodes(db: Executor, level: number, codes: readonly string[]): Promise<TaxonomyNodeRow[]> {
    if (!codes.length) return [];
    return db
      .select()
      .from(taxonomyNodes)
      .where(and(eq(taxonomyNodes.level, level), eq(taxonomyNodes.isCurrent, true), inArray(taxonomyNodes.code, [...codes])));
  },

  async allCurrent(db: Executor): Promise<TaxonomyNodeRow[]> {
    return db.select().from(taxonomyNodes).where(eq(taxonomyNodes.isCurrent, true));
  },

  async replaceProductNodes(db: Executor, productId: number, nodeUuids: readonly string[]): Promise<void> {
    await db.delete(productTaxonomies).where(eq(productTaxonomies.productId, productId));
    if (nodeUuids.length) await db.insert(productTaxonomies).values([...new Set(nodeUuids)].map((nodeUuid) => ({ productId, nodeUuid })));
  },

  /** Links of products that have none yet (products just made), in one statement. */
  async linkNewProducts(db: Executor, links: readonly { productId: number; nodeUuid: string }[]): Promise<void> {
    if (links.length) await db.insert(productTaxonomies).values([...links]);
  },

  /** Which nodes each product is linked to: pairs only, the nodes themselves come from byUuids. */
  async linksOfProducts(db: Executor, productIds: readonly number[]): Promise<{ productId: number; nodeUuid: string }[]> {
    if (!productIds.length) return [];
    return db
      .select({ productId: productTaxonomies.productId, nodeUuid: productTaxonomies.nodeUuid })
      .from(productTaxonomies)
      .where(inArray(productTaxonomies.productId, [...productIds]))
      .orderBy(productTaxonomies.productId, productTaxonomies.nodeUuid);
  },

  async byUuids(db: Executor, uuids: readonly string[]): Promise<TaxonomyNodeRow[]> {
    return uuids.length ? db.select().from(taxonomyNodes).where(inArray(taxonomyNodes.uuid, [...uuids])) : [];
  },
};
