import { serialKey } from "../../core/global-id.js";
import type { NodeType } from "../common/relay/node-type.js";
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
    // An account sees itself only.
    typeName: "Account",
    visibleKeys: async ({ caller }, keys) => new Set(!caller.service && keys.includes(caller.accountId) ? [caller.accountId] : []),
  },
];
