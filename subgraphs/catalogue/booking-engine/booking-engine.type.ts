import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { toGlobalId } from "../../../core/global-id.js";
import { CountryCodeScalar, DateTimeScalar, UrlScalar } from "../../common/common.scalars.js";
import { UserError } from "../../common/user.errors.js";

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

/** The OCTO capabilities the service asks for, by their wire names (`Octo-Capabilities`). */
export enum OctoCapability {
  PRICING = "octo/pricing",
  CONTENT = "octo/content",
  QUESTIONS = "octo/questions",
}
registerEnumType(OctoCapability, {
  name: "OctoCapability",
  description: "An OCTO capability the service uses, sent in the Octo-Capabilities header",
  valuesConfig: {
    PRICING: { description: "octo/pricing: the supplier's prices, which the booking flow sells at; required" },
    CONTENT: { description: "octo/content: titles and texts per language, imported into the catalogue" },
    QUESTIONS: { description: "octo/questions: the supplier's own questions to travellers, asked in the booking flow" },
  },
});

@ObjectType({ description: "How the service reaches an OCTO supplier system. The API key is never shown." })
export class OctoEngineSettings {
  @Field(() => UrlScalar, { description: "The supplier system's base URL" })
  baseUrl!: string;

  @Field(() => [OctoCapability], { description: "Asked for on every call (PRICING always)" })
  capabilities!: OctoCapability[];

  @Field(() => String, { description: "The supplier system's own id for itself (GET /supplier) when it was registered" })
  octoSupplierId!: string;

  @Field(() => String, { description: "The supplier system's name (GET /supplier)" })
  octoSupplierName!: string;

  @Field(() => CountryCodeScalar, { description: "The country given to the suppliers imported from it" })
  countryCode!: string;

  @Field(() => DateTimeScalar, { description: "When it was first registered" })
  registeredAt!: Date;

  @Field(() => DateTimeScalar, { description: "When the connection was last registered again (new URL, key or capabilities)" })
  updatedAt!: Date;

  @Field(() => DateTimeScalar, { nullable: true, description: "When an import of its content last finished; null before the first" })
  lastImportedAt!: Date | null;
}

@InputType({ description: "A supplier system speaking OCTO, registered as a booking engine (or registered again: its URL, key and capabilities are replaced)" })
export class RegisterOctoEngineInput {
  @Field(() => String, { description: "The engine's name: an upper-case identifier (A-Z, 0-9, _), new or of an OCTO engine" })
  name!: string;

  @Field(() => String, { description: "The supplier system's base URL (https in production)" })
  baseUrl!: string;

  @Field(() => String, { description: "The API key the supplier system gave us; stored sealed, never shown" })
  apiKey!: string;

  @Field(() => [OctoCapability], { nullable: true, description: "Capabilities to ask for, PRICING among them. Unset: all of these the supplier offers" })
  capabilities?: OctoCapability[] | null;

  @Field(() => String, { description: "ISO 3166-1 alpha-2: OCTO names no country, so the imported suppliers get this one" })
  countryCode!: string;
}

@ObjectType({ description: "The result of registerOctoEngine" })
export class RegisterOctoEnginePayload {
  @Field(() => BookingEngine, { nullable: true, description: "The engine as registered; null when refused" })
  bookingEngine?: BookingEngine | null;

  @Field(() => [UserError], { description: "Why the input was refused; empty on success" })
  userErrors!: UserError[];
}
