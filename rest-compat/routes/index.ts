import type { RestRoute } from "../rest-route.js";
import { getMeRoute } from "./account/get-me.route.js";
import { listOrganisationsRoute } from "./account/list-organisations.route.js";
import { listBookingEnginesRoute } from "./booking-engines/list-booking-engines.route.js";

/** Every REST path the layer serves; folder names follow the path's first segments. */
export const restRoutes: RestRoute<never>[] = [getMeRoute, listOrganisationsRoute, listBookingEnginesRoute] as RestRoute<never>[];
