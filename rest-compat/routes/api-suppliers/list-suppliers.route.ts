import { offsetCursor } from "../../../subgraphs/common/relay/relay.connection.js";
import { MAX_SUPPLIER_PAGE } from "../../../subgraphs/catalogue/supplier/supplier.service.js";
import { int, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { SUPPLIER_FIELDS, supplierListItem, supplierListItemSchema, type SupplierData } from "../api-supplier/supplier-body.js";

interface Data {
  suppliers: { nodes: SupplierData[]; totalCount: { count: number } };
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
        pageNumber: { ...int("Page number, from 1"), default: 1, minimum: 1, maximum: 2_147_483_647 },
        resultsPerPage: { ...int(`Items per page, 1 to ${MAX_SUPPLIER_PAGE}`), default: 100, minimum: 1, maximum: MAX_SUPPLIER_PAGE },
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
  // A numbered page is the connection read after an offset cursor; the total is the connection's count.
  operation: /* GraphQL */ `
    query RestListSuppliers($bookingEngineName: String!, $first: Int!, $after: String) {
      suppliers(bookingEngineName: $bookingEngineName, first: $first, after: $after) {
        nodes { ...RestSupplier } totalCount { count }
      }
    }
    ${SUPPLIER_FIELDS}
  `,
  parameters: { first: "resultsPerPage" },
  variables: (request) => {
    const query = request.query as { bookingEngineName: string; pageNumber: number; resultsPerPage: number };
    const skipped = (query.pageNumber - 1) * query.resultsPerPage;
    return { bookingEngineName: query.bookingEngineName, first: query.resultsPerPage, after: skipped > 0 ? offsetCursor(skipped) : null };
  },
  respond: ({ suppliers }, request) => {
    const query = request.query as { pageNumber: number; resultsPerPage: number };
    return {
      pageNumber: query.pageNumber,
      totalResults: suppliers.totalCount.count,
      resultsPerPage: query.resultsPerPage,
      items: suppliers.nodes.map(supplierListItem),
    };
  },
};
