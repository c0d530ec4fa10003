import { int, obj, str } from "../../json-schema.js";
import type { PageOf, RestRoute } from "../../rest-route.js";
import { SUPPLIER_FIELDS, supplierListItem, supplierListItemSchema, type SupplierData } from "../api-supplier/supplier-body.js";

interface Data {
  suppliers: PageOf<SupplierData>;
}

/** GET /api/suppliers (spec 1, "List the suppliers of a booking engine"). */
export const listSuppliersRoute: RestRoute<Data> = {
  method: "GET",
  url: "/api/suppliers",
  schema: {
    operationId: "listSuppliers",
    summary: "List the suppliers of a booking engine",
    description:
      "Deleted suppliers are not listed. 400 reasons (error code): INSUFFICIENT_SCOPE (token lacks catalogue:manage), WRONG_BOOKING_ENGINE (another engine than the caller's), UNKNOWN_BOOKING_ENGINE, ACCOUNT_NOT_FOUND (account deleted or disabled), NO_BOOKING_ENGINE (account's organisation has none).",
    tags: ["Suppliers"],
    querystring: obj(
      {
        bookingEngineName: { ...str("Booking engine name"), minLength: 1, maxLength: 255 },
        pageNumber: { ...int("Page number, from 1"), default: 1, maximum: 2_147_483_647 },
        resultsPerPage: { ...int("Items per page, 1 to 1000"), default: 100, maximum: 2_147_483_647 },
      },
      { required: ["bookingEngineName"], additionalProperties: false },
    ),
    response: {
      200: {
        type: "object",
        description: "A page of the engine's suppliers",
        properties: {
          pageNumber: { type: "integer" },
          totalResults: { type: "integer" },
          resultsPerPage: { type: "integer" },
          items: { type: "array", items: supplierListItemSchema },
        },
        required: ["pageNumber", "totalResults", "resultsPerPage", "items"],
      },
    },
  },
  operation: /* GraphQL */ `
    query RestListSuppliers($bookingEngineName: String!, $pageNumber: Int!, $resultsPerPage: Int!) {
      suppliers(bookingEngineName: $bookingEngineName, pageNumber: $pageNumber, resultsPerPage: $resultsPerPage) {
        pageNumber resultsPerPage totalResults items { ...RestSupplier }
      }
    }
    ${SUPPLIER_FIELDS}
  `,
  variables: (request) => {
    const query = request.query as { bookingEngineName: string; pageNumber: number; resultsPerPage: number };
    return { bookingEngineName: query.bookingEngineName, pageNumber: query.pageNumber, resultsPerPage: query.resultsPerPage };
  },
  respond: ({ suppliers }) => ({
    pageNumber: suppliers.pageNumber,
    totalResults: suppliers.totalResults,
    resultsPerPage: suppliers.resultsPerPage,
    items: suppliers.items.map(supplierListItem),
  }),
};
