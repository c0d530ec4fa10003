import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../drizzle/database.js";
import { createOctoSupplier } from "../octo-supplier/octo-supplier.js";
import { registerOctoEngine } from "../subgraphs/catalogue/booking-engine/octo-engine.service.js";
import type { OctoEngines } from "../subgraphs/common/octo/octo.engines.js";
import type { ServiceGraphs } from "../subgraphs/common/service.graph.js";

/** The engine name the demo gives the local OCTO supplier. */
export const DEMO_OCTO_ENGINE = "PARIS_DISCOVERY_OCTO";

const IMPORT = `mutation DemoImportOctoEngine($input: ImportOctoEngineInput!) {
  importOctoEngine(input: $input) { octoImport { createdProductCount updatedProductCount unchangedProductCount } userErrors { code message } }
}`;

interface ImportAnswer {
  importOctoEngine: { octoImport: { createdProductCount: number; updatedProductCount: number; unchangedProductCount: number } | null; userErrors: { code: string; message: string }[] };
}

export interface DemoOctoSupplier {
  engine: string;
  url: string;
  /** Products of the engine in the catalogue after this start's import. */
  products: number;
  close(): Promise<void>;
}

/**
 * The sandbox demo's second booking engine: the local OCTO supplier (`npm run octo-supplier`)
 * runs inside the service on a loopback port of its own (DEMO_OCTO_SUPPLIER_PORT, or any free
 * one), is registered as an OCTO engine (again at every start: its key is new each time, and so is
 * its port unless pinned) and imported, so a newcomer finds a
 * supplier system's products in the catalogue next to the built-in inventory's.
 */
export async function startDemoOctoSupplier(deps: { database: Database; octo: OctoEngines; graphs: ServiceGraphs; clock: Clock; logger: Logger; port: number }): Promise<DemoOctoSupplier> {
  const apiKey = randomBytes(24).toString("base64url");
  const supplier = await createOctoSupplier({ apiKey });
  try {
    const url = await supplier.listen(deps.port, "127.0.0.1");
    await registerOctoEngine(deps.database, deps.octo, { name: DEMO_OCTO_ENGINE, baseUrl: url, apiKey, country: "FR" }, deps.clock.now());
    const { importOctoEngine } = await deps.graphs("worker").request<ImportAnswer>("catalogue", IMPORT, { input: { bookingEngineName: DEMO_OCTO_ENGINE } });
    const done = importOctoEngine.octoImport;
    if (!done) throw new Error(`The demo's OCTO import was refused: ${importOctoEngine.userErrors.map((error) => `${error.code}: ${error.message}`).join("; ")}`);
    return { engine: DEMO_OCTO_ENGINE, url, products: done.createdProductCount + done.updatedProductCount + done.unchangedProductCount, close: () => supplier.close() };
  } catch (error) {
    await supplier.close();
    throw error;
  }
}
