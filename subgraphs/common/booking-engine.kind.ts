import { registerEnumType } from "type-graphql";

/**
 * Only the adapters that exist. Shared: the catalogue answers it of an engine, the booking
 * subgraph of a product whose setup is managed (a setup is for INVENTORY products only).
 */
export enum BookingEngineKind {
  INVENTORY = "INVENTORY",
  OCTO = "OCTO",
}
registerEnumType(BookingEngineKind, {
  name: "BookingEngineKind",
  description: "What kind of upstream system the engine is, and so how the service speaks to it",
  valuesConfig: {
    INVENTORY: { description: "The built-in inventory: products are sold through their booking setups" },
    OCTO: { description: "A supplier system speaking OCTO: its supplier and products are imported from it, and its products are booked through the flow in its own system (docs/octo-engine.md)" },
  },
});
