import DataLoader from "dataloader";
import type { Database } from "../../drizzle/database.js";
import { accountRepository, type OrganisationRow } from "../../identity/account.repository.js";
import type { SubgraphContext } from "../common/context.js";
import { byKey } from "../common/loaders.js";

export interface CatalogueLoaders {
  organisation: DataLoader<number, OrganisationRow | undefined>;
}

export type CatalogueContext = SubgraphContext<CatalogueLoaders>;

export function catalogueLoaders(database: Database): CatalogueLoaders {
  return {
    organisation: new DataLoader(async (ids) =>
      byKey(ids, await accountRepository.organisationsByIds(database.db, ids), (row) => row.id),
    ),
  };
}
