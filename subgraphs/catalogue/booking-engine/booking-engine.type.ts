import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { toGlobalId } from "../../../core/global-id.js";
import { DateTimeScalar } from "../../common/scalars.js";

/** Only the adapters that exist. */
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

/**
 * Products, suppliers and organisations hold an engine by id; its name and kind are read (batched)
 * when asked for, so every holder answers with the same fields.
 */
@ObjectType({ description: "An upstream system products are booked through, named by the product's bookingEngine" })
@Directive('@key(fields: "id")')
// The other subgraphs' references carry the number they hold.
@Directive('@key(fields: "legacyResourceId")')
export class BookingEngine {
  @Field(() => ID, { description: "The global id" })
  id!: string;

  @Field(() => Int, { description: "The engine's number on the REST paths (`bookingEngine` of a supplier request)" })
  legacyResourceId!: number;
}

/** An engine as its holders (products, suppliers, organisations) answer it: both ids; the rest is read when asked for. */
export const bookingEngineRef = (legacyResourceId: number): BookingEngine => ({ id: toGlobalId("BookingEngine", legacyResourceId), legacyResourceId });

@ObjectType({ description: "How the service reaches an OCTO supplier system. The API key is never shown." })
export class OctoEngineSettings {
  @Field(() => String, { description: "The supplier system's base URL" })
  baseUrl!: string;

  @Field(() => [String], { description: "Octo-Capabilities asked for on every call (octo/pricing always)" })
  capabilities!: string[];

  @Field(() => String, { description: "The supplier system's id (GET /supplier) when it was registered" })
  octoSupplierId!: string;

  @Field(() => String, { description: "The supplier system's name (GET /supplier)" })
  octoSupplierName!: string;

  @Field(() => String, { description: "ISO 3166-1 alpha-2 country given to the suppliers imported from it" })
  country!: string;

  @Field(() => Date)
  registeredAt!: Date;

  @Field(() => Date, { description: "When the connection was last registered again (new URL, key or capabilities)" })
  updatedAt!: Date;
}

@InputType({ description: "A supplier system speaking OCTO, registered as a booking engine" })
export class OctoEngineInput {
  @Field(() => String, { description: "The engine's name: an upper-case identifier (A-Z, 0-9, _), new or of an OCTO engine" })
  name!: string;

  @Field(() => String, { description: "The supplier system's base URL (https in production)" })
  baseUrl!: string;

  @Field(() => String, { description: "The API key the supplier system gave us; stored sealed, never shown" })
  apiKey!: string;

  @Field(() => [String], { nullable: true, description: "Capabilities to ask for: octo/pricing and any of octo/content, octo/questions. Unset: all of these the supplier offers" })
  capabilities?: string[] | null;

  @Field(() => String, { description: "ISO 3166-1 alpha-2: OCTO names no country, so the imported suppliers get this one" })
  country!: string;
}
