import type { PartnerDirectory } from "../../../identity/partner-directory.js";
import { bookingEngineRepository } from "../booking-engine/booking-engine.repository.js";
import { organisationRepository } from "./organisation.repository.js";

/** The catalogue's organisations and booking engines as identity's account service uses them. */
export const partnerDirectory: PartnerDirectory = {
  organisationByName: (db, name) => organisationRepository.byName(db, name),
  organisationsByIds: (db, ids) => organisationRepository.byIds(db, ids),
  createOrganisation: (db, values) => organisationRepository.insert(db, values as Parameters<typeof organisationRepository.insert>[1]),
  setTrackingIds: (db, organisationId, enabled) => organisationRepository.update(db, organisationId, { trackingIdsEnabled: enabled }),
  async ensureBookingEngine(db, name) {
    const { engine, created } = await bookingEngineRepository.ensure(db, name);
    return { engineId: engine.id, created };
  },
};
