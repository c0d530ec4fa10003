import DataLoader from "dataloader";
import type { Caller } from "../../core/caller.js";
import { sharedExecutor, type Database } from "../../drizzle/database.js";
import { trackingIdRepository } from "./product/tracking-id.repository.js";
import { bookingEngineRepository, type BookingEngineRow } from "./booking-engine/booking-engine.repository.js";
import { organisationRepository, type OrganisationRow } from "./organisation/organisation.repository.js";
import type { LoaderDeps, SubgraphContext } from "../common/subgraph.context.js";
import type { OctoEngines, OctoEngineSettings } from "../common/octo/octo.engines.js";
import { byKey } from "../common/common.loaders.js";
import { productRepository, type ProductRow } from "./product/product.repository.js";
import { supplierRepository, type SupplierRow } from "./supplier/supplier.repository.js";
import { taxonomyRepository, type TaxonomyNodeRow } from "./taxonomy/taxonomy.repository.js";
import { productSearchRepository } from "./search/product-search.repository.js";

export interface CatalogueLoaders {
  organisation: DataLoader<number, OrganisationRow | undefined>;
  bookingEngine: DataLoader<number, BookingEngineRow | undefined>;
  /** The connection of OCTO engines by engine id (no key). */
  octoSettings: DataLoader<number, OctoEngineSettings | undefined>;
  octo: OctoEngines;
  /** Live (not deleted) suppliers by id. */
  supplier: DataLoader<number, SupplierRow | undefined>;
  /** Suppliers by id, deleted ones included (for the records of deleted products). */
  anySupplier: DataLoader<number, SupplierRow | undefined>;
  supplierOnlineBookable: DataLoader<number, boolean>;
  /** Live (not deleted) products by id. */
  product: DataLoader<number, ProductRow | undefined>;
  /** Deleted products included: for entity references from bookings and reports. */
  anyProduct: DataLoader<number, ProductRow | undefined>;
  /** A fresh tracking id per product for this call, when the caller's organisation has the feature; null otherwise. */
  trackingId: DataLoader<number, number | null>;
  /** The taxonomy nodes linked to each product. */
  productTaxonomyNodes: DataLoader<number, TaxonomyNodeRow[]>;
  /**
   * Product rows read with their `taxonomy_uuids` (kept equal to the links by triggers, in the
   * same transaction): productTaxonomyNodes answers them from it instead of querying the links.
   */
  knowTaxonomyLinks(rows: readonly { id: number; taxonomyUuids: readonly string[] }[]): void;
  /** Every current taxonomy node by uuid: the process's shared copy (sharedTaxonomy), the same one for the whole request. */
  taxonomy: () => Promise<ReadonlyMap<string, TaxonomyNodeRow>>;
  /** Where search and change detection read their pages: the database's, or a fake in the service tests. */
  search: Pick<typeof productSearchRepository, "page">;
}

export type CatalogueContext = SubgraphContext<CatalogueLoaders>;

/**
 * How long a process serves the current taxonomy it read. The taxonomy is the one thing every
 * catalogue page reads that is the same for every caller, and it changes only when a release's
 * start-up seed runs (taxonomyRepository.ensureSeed): a process started before a newer release
 * seeded it shows the older names for at most this long.
 */
export const SHARED_TAXONOMY_MS = 60_000;
const sharedTaxonomies = new WeakMap<object, { readAt: number; nodes: Promise<ReadonlyMap<string, TaxonomyNodeRow>> }>();

/** The current taxonomy by uuid, read at most once a SHARED_TAXONOMY_MS per process; frozen, so that no request can change what the next one reads. */
export function sharedTaxonomy(database: Database, now = Date.now()): Promise<ReadonlyMap<string, TaxonomyNodeRow>> {
  // Kept for the database, whichever account's view of it asks.
  const key = sharedExecutor(database.db);
  const held = sharedTaxonomies.get(key);
  if (held && now - held.readAt < SHARED_TAXONOMY_MS) return held.nodes;
  const nodes = taxonomyRepository.allCurrent(database.db).then((rows) => new Map(rows.map((row) => [row.uuid, Object.freeze({ ...row, name: Object.freeze({ ...row.name }) })])));
  const entry = { readAt: now, nodes };
  sharedTaxonomies.set(key, entry);
  // A failed read is not kept: the next request reads again.
  nodes.catch(() => sharedTaxonomies.get(key) === entry && sharedTaxonomies.delete(key));
  return nodes;
}

/**
 * A page links a thousand products to a few dozen nodes: the links come as pairs (or from the
 * rows that carried them) and each node row is read once (from the current tree, or by uuid for a
 * node no longer current).
 */
function taxonomyNodesOfProducts(db: Database["db"], knownLinks: ReadonlyMap<number, readonly string[]>, taxonomy: () => Promise<ReadonlyMap<string, TaxonomyNodeRow>>) {
  return new DataLoader<number, TaxonomyNodeRow[]>(async (ids) => {
    const unknown = ids.filter((id) => !knownLinks.has(id));
    const [read, current] = await Promise.all([taxonomyRepository.linksOfProducts(db, unknown), taxonomy()]);
    const links = read.concat(ids.flatMap((id) => knownLinks.get(id)?.map((nodeUuid) => ({ productId: id, nodeUuid })) ?? []));
    const missing = [...new Set(links.map((link) => link.nodeUuid).filter((uuid) => !current.has(uuid)))];
    const nodes = missing.length ? new Map([...current, ...(await taxonomyRepository.byUuids(db, missing)).map((node) => [node.uuid, node] as const)]) : current;
    const byProduct = new Map<number, TaxonomyNodeRow[]>();
    for (const link of links) {
      const node = nodes.get(link.nodeUuid);
      if (!node) continue;
      const linked = byProduct.get(link.productId);
      if (linked) linked.push(node);
      else byProduct.set(link.productId, [node]);
    }
    return ids.map((id) => byProduct.get(id) ?? []);
  });
}

/** One set per request: every entity fetch of a request is batched, and nothing a caller may see differently is kept across requests (the taxonomy, the same for all, is shared: sharedTaxonomy). */
export function catalogueLoaders(database: Database, caller: Caller, deps: LoaderDeps): CatalogueLoaders {
  const db = database.db;
  const organisation = new DataLoader<number, OrganisationRow | undefined>(async (ids) => byKey(ids, await organisationRepository.byIds(db, ids), (row) => row.id));
  const taxonomy = once(() => sharedTaxonomy(database));
  const knownLinks = new Map<number, readonly string[]>();
  const bookingEngine = new DataLoader<number, BookingEngineRow | undefined>(async (ids) => byKey(ids, await bookingEngineRepository.byIds(db, ids), (row) => row.id));
  const anySupplier = new DataLoader<number, SupplierRow | undefined>(async (ids) => byKey(ids, await supplierRepository.byIds(db, ids), (row) => row.id));
  return {
    search: productSearchRepository,
    trackingId: new DataLoader(async (productIds) => {
      const own = caller.organisationId === null ? undefined : await organisation.load(caller.organisationId);
      if (!own?.trackingIdsEnabled) return productIds.map(() => null);
      // Issued ids are written: on the primary, even for a product read on the replica.
      return trackingIdRepository.issue(database.primary.db, productIds, own.id);
    }),
    organisation,
    bookingEngine,
    octoSettings: new DataLoader(async (ids) => byKey(ids, await deps.octo.settings(db, ids), (row) => row.engineId)),
    octo: deps.octo,
    supplier: new DataLoader(async (ids) => byKey(ids, await supplierRepository.liveByIds(db, ids), (row) => row.id)),
    anySupplier,
    product: new DataLoader(async (ids) => byKey(ids, await productRepository.liveByIds(db, ids), (row) => row.id)),
    // A product read by reference is asked for its engine and supplier next (every booking step's
    // facts): they come in the same statement, which took two of a booking flow's 70 away at
    // each of its five reads of the facts.
    anyProduct: new DataLoader(async (ids) => {
      const rows = await productRepository.anyByIdsWithOwners(db, ids);
      for (const row of rows) {
        bookingEngine.prime(row.engine.id, row.engine);
        anySupplier.prime(row.supplier.id, row.supplier);
      }
      return byKey(ids, rows.map((row) => row.product), (row) => row.id);
    }),
    productTaxonomyNodes: taxonomyNodesOfProducts(db, knownLinks, taxonomy),
    knowTaxonomyLinks(rows) {
      for (const row of rows) knownLinks.set(row.id, row.taxonomyUuids);
    },
    taxonomy,
    supplierOnlineBookable: new DataLoader(async (ids) => {
      const bookable = await supplierRepository.withBookableProducts(db, ids);
      return ids.map((id) => bookable.has(id));
    }),
  };
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}
