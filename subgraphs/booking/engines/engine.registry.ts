import { EngineRegistry } from "./booking.engine.js";
import { inventoryEngine } from "./inventory/inventory.engine.js";
import { octoEngine } from "./octo/octo.engine.js";

/** The adapters of this process: OCTO engines through their connections, every other engine through the built-in inventory. */
export const engineRegistry = new EngineRegistry(inventoryEngine, octoEngine);
