import type { RestRoute } from "../rest-route.js";
import { getMeRoute } from "./account/get-me.route.js";
import { listOrganisationsRoute } from "./account/list-organisations.route.js";
import { createSupplierRoute } from "./api-supplier/create-supplier.route.js";
import { deleteSupplierRoute } from "./api-supplier/delete-supplier.route.js";
import { getSupplierRoute } from "./api-supplier/get-supplier.route.js";
import { updateSupplierRoute } from "./api-supplier/update-supplier.route.js";
import { createProductRoute } from "./api-supplier-product/create-product.route.js";
import { listProductsNoSlashRoute, listProductsRoute } from "./api-supplier-product/list-products.route.js";
import { deleteProductRoute, deprecateProductRoute, undeprecateProductRoute, updateProductRoute } from "./api-supplier-product/manage-product.routes.js";
import { listSuppliersRoute } from "./api-suppliers/list-suppliers.route.js";
import { listBookingEnginesRoute } from "./booking-engines/list-booking-engines.route.js";
import { importOctoEngineRoute } from "./booking-engines/import-octo-engine.route.js";
import { registerOctoEngineRoute } from "./booking-engines/register-octo-engine.route.js";
import { diffProductsRoute } from "./api-consumer/diff-products.route.js";
import { recommendActivitiesGetRoute, recommendActivitiesRoute } from "./recommendation/recommend-activities.route.js";
import { topActivitiesRoute } from "./recommendation/top-activities.route.js";
import { activeActivitiesRoute } from "./content-import/active-activities.route.js";
import { inactiveActivitiesRoute } from "./content-import/inactive-activities.route.js";
import { getConsumerProductRoute } from "./api-consumer/get-product.route.js";
import { getTaxonomyRoute } from "./api-consumer/get-taxonomy.route.js";
import { deleteBookingSetupRoute, getBookingSetupRoute, putBookingSetupRoute } from "./api-supplier-product/booking-setup.routes.js";
import { availabilityDatesRoute, nextAvailabilityDatesRoute } from "./booking-flow/availability-dates.routes.js";
import { getOptionsRoute, setOptionRoute } from "./booking-flow/availability-options.routes.js";
import { getPricesRoute, setPricesRoute } from "./booking-flow/availability-prices.routes.js";
import { cancelBookingRoute, confirmBookingRoute, createBookingRoute, getBookingRoute, getQuestionsRoute, setAnswersRoute } from "./booking-flow/bookings.routes.js";
import { searchProductsRoute } from "./api-consumer/search-products.route.js";
import { getBookingReportRoute } from "./reporting/get-booking.route.js";
import { listBookingReportsRoute } from "./reporting/list-bookings.route.js";
import { webhookRoutes } from "./webhooks/webhook-endpoints.routes.js";

/**
 * Every REST path the layer serves. Folders follow the path: api-supplier (/api/supplier/…),
 * api-suppliers (/api/suppliers), api-supplier-product (/api/supplier/{id}/product…), api-consumer (/api/consumer/…), content-import (/content/v0/import/…), recommendation (/recommendation/…),
 * booking-engines (/api/booking-engines…, extensions), booking-flow (/booking-flow/v1/…; the signed voucher link in voucher.route.ts), reporting (/reporting/v1/…), webhooks (/api/webhooks/…, extensions).
 */
export const restRoutes = [
  getMeRoute,
  ...webhookRoutes,
  listOrganisationsRoute,
  listBookingEnginesRoute,
  registerOctoEngineRoute,
  importOctoEngineRoute,
  createSupplierRoute,
  getSupplierRoute,
  updateSupplierRoute,
  deleteSupplierRoute,
  listSuppliersRoute,
  createProductRoute,
  listProductsRoute,
  listProductsNoSlashRoute,
  updateProductRoute,
  deleteProductRoute,
  deprecateProductRoute,
  undeprecateProductRoute,
  searchProductsRoute,
  diffProductsRoute,
  getConsumerProductRoute,
  getTaxonomyRoute,
  activeActivitiesRoute,
  inactiveActivitiesRoute,
  recommendActivitiesRoute,
  recommendActivitiesGetRoute,
  topActivitiesRoute,
  putBookingSetupRoute,
  getBookingSetupRoute,
  deleteBookingSetupRoute,
  availabilityDatesRoute,
  nextAvailabilityDatesRoute,
  getOptionsRoute,
  setOptionRoute,
  getPricesRoute,
  setPricesRoute,
  createBookingRoute,
  getQuestionsRoute,
  setAnswersRoute,
  confirmBookingRoute,
  getBookingRoute,
  cancelBookingRoute,
  listBookingReportsRoute,
  getBookingReportRoute,
] as RestRoute<never>[];
