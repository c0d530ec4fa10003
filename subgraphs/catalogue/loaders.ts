import DataLoader from "dataloader";
import type { Database } from "../../drizzle/database.js";
import { accountRepository, type AccountRow, type BookingEngineRow, type OrganisationRow } from "../../identity/account.repository.js";
import type { SubgraphContext } from "../common/context.js";
import { byKey } from "../common/loaders.js";
import { productRepository, type ProductRow } from "./product/product.repository.js";
import { supplierRepository, type SupplierRow } from "./supplier/supplier.repository.js";

export interface CatalogueLoaders {
  organisation: DataLoader<number, OrganisationRow | undefined>;
  account: DataLoader<string, AccountRow | undefined>;
  bookingEngine: DataLoader<number, BookingEngineRow | undefined>;
  /** Live (not deleted) suppliers by id. */
  supplier: DataLoader<number, SupplierRow | undefined>;
  supplierOnlineBookable: DataLoader<number, boolean>;
  /** Live (not deleted) products by id. */
  product: DataLoader<number, ProductRow | undefined>;
}

export type CatalogueContext = SubgraphContext<CatalogueLoaders>;

/** One set per request: every entity fetch of a request is batched, and nothing is cached across callers. */
export function catalogueLoaders(database: Database): CatalogueLoaders {
  const db = database.db;
  return {
    organisation: new DataLoader(async (ids) => byKey(ids, await accountRepository.organisationsByIds(db, ids), (row) => row.id)),
    account: new DataLoader(async (ids) => byKey(ids, await accountRepository.byIds(db, ids), (row) => row.id)),
    bookingEngine: new DataLoader(async (ids) => byKey(ids, await accountRepository.bookingEnginesByIds(db, ids), (row) => row.id)),
    supplier: new DataLoader(async (ids) => byKey(ids, await supplierRepository.liveByIds(db, ids), (row) => row.id)),
    product: new DataLoader(async (ids) => byKey(ids, await productRepository.liveByIds(db, ids), (row) => row.id)),
    supplierOnlineBookable: new DataLoader(async (ids) => {
      const bookable = await supplierRepository.withBookableProducts(db, ids);
      return ids.map((id) => bookable.has(id));
    }),
  };
}
