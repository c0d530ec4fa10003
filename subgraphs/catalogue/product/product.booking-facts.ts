import { Arg, Ctx, Directive, Field, Float, Int, ObjectType, Query, Resolver } from "type-graphql";
import { badInput, forbidden } from "../../../core/errors.js";
import { JSONObjectScalar } from "../../common/json.scalars.js";
import { MAX_BOOKING_FACT_IDS, type ProductFacts } from "../../common/booking-product.facts.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { productRepository } from "./product.repository.js";

/**
 * What the booking flow needs of a product to sell it, in one narrow row: the `Product` entity
 * reads the whole wide row (descriptions, itinerary, gallery in every language) to serve any
 * field a client may select, and a booking flow asked for it five times, for a dozen fields.
 */
@Directive("@inaccessible")
@ObjectType({ description: "A live product's facts for the booking service" })
export class BookingProductFacts implements ProductFacts {
  @Field(() => Int) id!: number;
  @Field(() => Int) supplierId!: number;
  @Field(() => String) externalId!: string;
  @Field(() => JSONObjectScalar, { description: "Language code to text" }) title!: Record<string, string>;
  @Field(() => String, { nullable: true }) supplierName!: string | null;
  @Field(() => Int, { description: "The supplier's engine: the content partner that manages the product" }) scopeEngineId!: number;
  @Field(() => String) bookingEngineName!: string;
  @Field(() => String) bookingEngineKind!: string;
  @Field(() => JSONObjectScalar, { nullable: true }) availabilityPeriods!: Record<string, unknown> | null;
  @Field(() => Boolean) deprecated!: boolean;
  @Field(() => String, { nullable: true }) duration!: string | null;
  @Field(() => Float, { nullable: true }) estCommFrpricePerc!: number | null;
  @Field(() => Float, { nullable: true }) estCommNet!: number | null;
  @Field(() => Float, { nullable: true }) minPrice!: number | null;
}

@Resolver()
export class BookingProductFactsResolver {
  /** Not in the client API: the booking subgraph's service code asks it of this subgraph directly. */
  @Directive("@inaccessible")
  @Query(() => [BookingProductFacts], { nullable: "items", description: "For each id, the live product's facts, or null for an unknown or deleted product; the booking service only" })
  async bookingProductFacts(@Arg("ids", () => [Int]) ids: number[], @Ctx() ctx: CatalogueContext): Promise<(BookingProductFacts | null)[]> {
    if (ctx.caller.service !== "booking") throw forbidden("Only the booking service reads a product's booking facts");
    if (ids.length > MAX_BOOKING_FACT_IDS) throw badInput(`At most ${MAX_BOOKING_FACT_IDS} ids a call`, [{ field: "ids", rule: "maxItems", message: `at most ${MAX_BOOKING_FACT_IDS} ids` }]);
    const byId = new Map((await productRepository.liveBookingFactsByIds(ctx.database.db, ids)).map((facts) => [facts.id, facts]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}
