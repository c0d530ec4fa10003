import { errorResponse } from "../../error-body.js";
import { answer, arr, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";

const count = (description: string) => ({ type: "integer", description });

/** POST /api/booking-engines/octo/{name}/import (extension, docs/octo-engine.md): import an OCTO engine's content now. */
interface OctoImportData {
  bookingEngine: { name: string };
  supplier: { legacyResourceId: number };
  isSupplierCreated: boolean;
  isSupplierUpdated: boolean;
  createdProductCount: number;
  updatedProductCount: number;
  unchangedProductCount: number;
  deprecatedProductCount: number;
  undeprecatedProductCount: number;
  refusedProducts: { externalId: string; message: string }[];
}

export const importOctoEngineRoute: RestRoute<{ importOctoEngine: { octoImport: OctoImportData; userErrors: UserErrorData[] } }> = {
  method: "POST",
  url: "/api/booking-engines/octo/:name/import",
  schema: {
    operationId: "importOctoEngine",
    summary: "Import an OCTO engine's supplier and products now (extension)",
    description:
      "PLATFORM_CATALOG_MANAGEMENT only. GET /supplier and GET /products (once per language with octo/content) become the engine's supplier and products: new ones are created (NEW in change detection), changed ones updated (UPDATED), unchanged ones left alone, and those gone upstream deprecated (DEPRECATED), never deleted. The worker does the same every OCTO_IMPORT_INTERVAL_MINUTES. 404 for an unknown engine; 400 ENGINE_NOT_OCTO for an engine of another kind; 503 ENGINE_UNAVAILABLE or ENGINE_REFUSED when the supplier system cannot be reached or refuses the key, 400 ENGINE_NOT_CONFORMING when it answers outside OCTO; 409 IMPORT_RUNNING while another import of the engine runs; 409 ENGINE_SECRETS_KEY_MISSING when the engine's key cannot be opened (production without ENGINE_SECRETS_KEY, or another key than the one it was registered under).",
    tags: ["Booking engines"],
    params: obj({ name: { type: "string", maxLength: 64, description: "Engine name" } }, { required: ["name"] }),
    response: {
      200: answer(
        {
        engine: str("Engine name"),
        supplierId: count("Our supplier for the engine's OCTO supplier"),
        supplierCreated: { type: "boolean" },
        supplierUpdated: { type: "boolean" },
        created: count("New products"),
        updated: count("Products whose content changed"),
        unchanged: count("Products not written: nothing changed"),
        deprecated: count("Products gone upstream, deprecated"),
        undeprecated: count("Products back upstream"),
        refused: arr(answer({ externalId: str("OCTO product id"), message: str("Why the catalogue's rules refused it") }, ["externalId", "message"]), "Products not imported; the others were"),
        },
        ["engine", "supplierId", "supplierCreated", "supplierUpdated", "created", "updated", "unchanged", "deprecated", "undeprecated", "refused"],
        "What the import did",
      ),
      404: errorResponse("Unknown booking engine"),
      409: errorResponse("IMPORT_RUNNING or ENGINE_SECRETS_KEY_MISSING"),
    },
  },
  operation: /* GraphQL */ `
    mutation RestImportOctoEngine($input: ImportOctoEngineInput!) {
      importOctoEngine(input: $input) {
        octoImport {
          bookingEngine { name } supplier { legacyResourceId } isSupplierCreated isSupplierUpdated
          createdProductCount updatedProductCount unchangedProductCount deprecatedProductCount undeprecatedProductCount refusedProducts { externalId message }
        }
        ${USER_ERRORS}
      }
    }
  `,
  parameters: { input: "", bookingEngineName: "name" },
  variables: (request) => ({ input: { bookingEngineName: (request.params as { name: string }).name } }),
  respond: ({ importOctoEngine }) => {
    const done = refusedUnlessEmpty(importOctoEngine, { bookingEngineName: "name" }).octoImport;
    return {
      engine: done.bookingEngine.name,
      supplierId: done.supplier.legacyResourceId,
      supplierCreated: done.isSupplierCreated,
      supplierUpdated: done.isSupplierUpdated,
      created: done.createdProductCount,
      updated: done.updatedProductCount,
      unchanged: done.unchangedProductCount,
      deprecated: done.deprecatedProductCount,
      undeprecated: done.undeprecatedProductCount,
      refused: done.refusedProducts,
    };
  },
};
