import { EngineRegistry } from "./booking-engine.js";
import { inventoryEngine } from "./inventory/inventory-engine.js";

/** The adapters of this process: the built-in inventory for every engine without its own adapter. */
export const engineRegistry = new EngineRegistry(inventoryEngine);
