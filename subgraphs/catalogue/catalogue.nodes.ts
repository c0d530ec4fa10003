import { serialKey } from "../../core/global-id.js";
import { hasAnyRole, hasScope } from "../../core/caller.js";
import { MANAGE_SCOPE, managementRoles } from "../../core/roles.js";
import type { NodeType } from "../common/relay/relay.node-type.js";
import { supplierRepository } from "./supplier/supplier.repository.js";
import { productRepository } from "./product/product.repository.js";
import { READ_SCOPE } from "./consumer.access.js";
import { taxonomyRepository } from "./taxonomy/taxonomy.repository.js";
import { isUuid } from "../../core/uuid.js";
import { bookingEngineRepository } from "./booking-engine/booking-engine.repository.js";
import { organisationRepository } from "./organisation/organisation.repository.js";
import { maySeeOrganisation } from "./organisation/organisation.service.js";

/** The numbers among a batch of keys (anything else names nothing). */
const numbers = (keys: readonly string[]): number[] => keys.map(serialKey).filter((key) => key !== null);

/** The catalogue's types that `node(id)` finds, each by the rule its own queries apply. */
export const catalogueNodeTypes: NodeType[] = [
  {
    // Every caller may read every engine (bookingEngines).
    typeName: "BookingEngine",
    async visibleKeys({ database }, keys) {
      return new Set((await bookingEngineRepository.byIds(database.db, numbers(keys))).map((row) => String(row.id)));
    },
  },
  {
    typeName: "Organisation",
    async visibleKeys({ database, caller }, keys) {
      const visible = numbers(keys).filter((key) => maySeeOrganisation(caller, key));
      return new Set((await organisationRepository.byIds(database.db, visible)).map((row) => String(row.id)));
    },
  },
  {
    // As supplier(id) shows them: to content managers of their engine.
    typeName: "Supplier",
    async visibleKeys({ database, caller }, keys) {
      if (!hasAnyRole(caller, managementRoles) || !hasScope(caller, MANAGE_SCOPE)) return new Set();
      const isPlatform = caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT");
      const [organisation] = isPlatform || caller.organisationId === null ? [] : await organisationRepository.byIds(database.db, [caller.organisationId]);
      if (!isPlatform && !organisation?.bookingEngineId) return new Set();
      const rows = await supplierRepository.liveByIds(database.db, numbers(keys));
      return new Set(rows.filter((row) => isPlatform || row.bookingEngineId === organisation!.bookingEngineId).map((row) => String(row.id)));
    },
  },
  {
    // As product(id) shows them: live products, to callers who may read the catalogue.
    typeName: "Product",
    async visibleKeys({ database, caller }, keys) {
      if (!hasScope(caller, READ_SCOPE)) return new Set();
      return new Set((await productRepository.liveByIds(database.db, numbers(keys))).map((row) => String(row.id)));
    },
  },
  {
    // As taxonomy shows them: the current nodes, to callers who may read the catalogue.
    typeName: "TaxonomyNode",
    async visibleKeys({ database, caller }, keys) {
      if (!hasScope(caller, READ_SCOPE)) return new Set();
      return new Set((await taxonomyRepository.byUuids(database.db, keys.filter(isUuid))).filter((row) => row.isCurrent).map((row) => row.uuid));
    },
  },
  {
    // An account sees itself only.
    typeName: "Account",
    visibleKeys: async ({ caller }, keys) => new Set(!caller.service && keys.includes(caller.accountId) ? [caller.accountId] : []),
  },
];
