import { Directive, Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import type { LanguageText } from "../../../drizzle/schema.js";
import { JSONObjectScalar, LanguageObjectScalar } from "../../common/json-scalars.js";
import { LocalizedText } from "../language/localized-text.js";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";
import { GeoLocation, GeoLocationInput } from "../supplier/supplier.type.js";

@ObjectType()
export class Country {
  @Field(() => String, { description: "ISO 3166-1 alpha-2" }) code!: string;
  @Field(() => LocalizedText) name!: LocalizedText;
}

@ObjectType()
export class GalleryImage {
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String) url!: string;
  @Field(() => Int, { nullable: true, description: "Position in the gallery" }) order!: number | null;
}

@ObjectType()
export class ProductCategory {
  @Field(() => Int, { description: "1 = category, 2 = subcategory, 3 = next level" }) level!: number;
  @Field(() => String) code!: string;
  @Field(() => LocalizedText, { nullable: true }) name!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) description!: LocalizedText | null;
}

@ObjectType({ description: "An activity of the catalogue" })
@Directive('@key(fields: "id")')
// Bookings and booking reports refer to what was sold by the number they hold.
@Directive('@key(fields: "legacyResourceId")')
export class Product {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => Int, { description: "The product's number on the REST paths" }) legacyResourceId!: number;
  @Field(() => String) externalId!: string;
  @Field(() => Int) supplierId!: number;
  @Field(() => LocalizedText) title!: LocalizedText;
  @Field(() => LocalizedText, { nullable: true }) subtitle!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) shortDescription!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) description!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "Lines separated by the two characters '/n'" }) experienceHighlights!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) bookingUrl!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) cancellationCutOff!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) modalitiesIncluded!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) modalitiesExcluded!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true }) modalitiesAdditionalInfo!: LocalizedText | null;
  @Field(() => String, { nullable: true }) countryCode!: string | null;
  @Field(() => Country, { nullable: true }) country!: Country | null;
  @Field(() => String, { nullable: true }) zipCode!: string | null;
  @Field(() => String, { nullable: true }) cityName!: string | null;
  @Field(() => Float, { nullable: true }) rating!: number | null;
  @Field(() => Int, { nullable: true }) numberOfRatings!: number | null;
  @Field(() => String, { nullable: true }) channel!: string | null;
  @Field(() => String, { nullable: true }) internalName!: string | null;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => Boolean, { nullable: true }) instantConfirmation!: boolean | null;
  @Field(() => Boolean, { nullable: true }) instantDelivery!: boolean | null;
  @Field(() => String, { nullable: true, description: "START_TIME or OPENING_HOURS" }) availabilityType!: string | null;
  @Field(() => String, { nullable: true, description: "MANIFEST, DIGITAL or PRINT" }) redemptionMethod!: string | null;
  @Field(() => String, { nullable: true }) thumbnailImage!: string | null;
  @Field(() => BookingEngine, { description: "The engine the product is booked through" }) bookingEngine!: BookingEngine;
  @Field(() => Float, { nullable: true }) minPrice!: number | null;
  @Field(() => Float, { nullable: true }) maxPrice!: number | null;
  @Field(() => String, { nullable: true }) priceCurrency!: string | null;
  @Field(() => String, { nullable: true }) pricingUnit!: string | null;
  @Field(() => Int, { nullable: true }) priceLevel!: number | null;
  @Field(() => Float, { nullable: true }) averagePrice!: number | null;
  @Field(() => Int, { nullable: true }) minParticipants!: number | null;
  @Field(() => Int, { nullable: true }) maxParticipants!: number | null;
  @Field(() => String, { nullable: true }) address!: string | null;
  @Field(() => String, { nullable: true }) placeId!: string | null;
  @Field(() => String, { nullable: true }) website!: string | null;
  @Field(() => GeoLocation, { nullable: true }) geoLocation!: GeoLocation | null;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration" }) duration!: string | null;
  @Field(() => [GalleryImage]) galleryImages!: GalleryImage[];
  @Field(() => [ProductCategory]) categories!: ProductCategory[];
  @Field(() => JSONObjectScalar, { nullable: true, description: "{weeklyPeriods, spontaneousPeriod} as sent" }) availabilityPeriods!: Record<string, unknown> | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: "{type, unitType, unstructuredItinerary, units} as sent" }) itinerary!: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true }) isCancellable!: boolean | null;
  @Field(() => Int, { nullable: true }) cancellationCutOffAmount!: number | null;
  @Field(() => String, { nullable: true }) cancellationCutOffUnit!: string | null;
  @Field(() => Boolean, { nullable: true }) handiAccess!: boolean | null;
  @Field(() => Float, { nullable: true }) estCommNet!: number | null;
  @Field(() => Float, { nullable: true }) estCommFrpricePerc!: number | null;
  @Field(() => Boolean, { nullable: true }) likelyToBeSoldOut!: boolean | null;
  @Field(() => Boolean, { nullable: true }) skipTheLine!: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata!: Record<string, unknown> | null;
  @Field(() => LanguageObjectScalar, { description: "Per language of the title: whether the product can be booked online in it" }) onlineBookable!: Record<string, boolean>;
  @Field(() => Boolean) deprecated!: boolean;
  /** For other subgraphs' service code (booking sells live products only); not in the client API. */
  @Directive("@inaccessible")
  @Field(() => Boolean, { description: "Deleted by its supplier: kept for the bookings and reports that refer to it" }) removed!: boolean;
  @Field(() => Date) creationDate!: Date;
  @Field(() => Date) updateDate!: Date;
}

/** The number a product's global id names, or null. */
export const productKey = (id: string): number | null => serialKeyOfGlobalId(id, "Product");

@ObjectType()
export class DeletedProduct {
  @Field(() => Int) id!: number;
}

@InputType()
export class GalleryImageInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String) url!: string;
  @Field(() => Int, { nullable: true }) order?: number | null;
}

@InputType()
export class ProductCategoryInput {
  @Field(() => Int) level!: number;
  @Field(() => String, { description: "A taxonomy code at that level (see the taxonomy query)" }) code!: string;
  @Field(() => LanguageObjectScalar, { nullable: true }) name?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) description?: LanguageText | null;
}

@InputType()
export class ProductFilterInput {
  @Field(() => String, { nullable: true }) countryCode?: string | null;
  @Field(() => String, { nullable: true }) zipCode?: string | null;
  @Field(() => String, { nullable: true }) cityName?: string | null;
  @Field(() => Float, { nullable: true, description: "At least this rating" }) rating?: number | null;
  @Field(() => Int, { nullable: true, description: "At least this many ratings" }) numberOfRatings?: number | null;
}

@InputType({ description: "Product request fields (spec 1); create and update take the same fields" })
export class ProductInput {
  @Field(() => String) externalId!: string;
  @Field(() => LanguageObjectScalar) title!: LanguageText;
  @Field(() => String, { nullable: true }) countryCode?: string | null;
  @Field(() => String, { nullable: true }) zipCode?: string | null;
  @Field(() => String, { nullable: true }) cityName?: string | null;
  @Field(() => Float, { nullable: true }) rating?: number | null;
  @Field(() => Int, { nullable: true }) numberOfRatings?: number | null;
  @Field(() => String, { nullable: true }) channel?: string | null;
  @Field(() => String, { nullable: true }) internalName?: string | null;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => Boolean, { nullable: true }) instantConfirmation?: boolean | null;
  @Field(() => Boolean, { nullable: true }) instantDelivery?: boolean | null;
  @Field(() => String, { nullable: true }) availabilityType?: string | null;
  @Field(() => String, { nullable: true }) redemptionMethod?: string | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) subtitle?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) shortDescription?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) description?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) experienceHighlights?: LanguageText | null;
  @Field(() => String, { nullable: true }) thumbnailImage?: string | null;
  @Field(() => String, { nullable: true, description: "Booking engine name; the supplier's engine when absent" }) bookingEngine?: string | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) bookingUrl?: LanguageText | null;
  @Field(() => Float, { nullable: true }) minPrice?: number | null;
  @Field(() => Float, { nullable: true }) maxPrice?: number | null;
  @Field(() => String, { nullable: true }) priceCurrency?: string | null;
  @Field(() => String, { nullable: true }) pricingUnit?: string | null;
  @Field(() => Int, { nullable: true }) priceLevel?: number | null;
  @Field(() => Float, { nullable: true }) averagePrice?: number | null;
  @Field(() => Int, { nullable: true }) minParticipants?: number | null;
  @Field(() => Int, { nullable: true }) maxParticipants?: number | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) placeId?: string | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => GeoLocationInput, { nullable: true }) geoLocation?: GeoLocationInput | null;
  @Field(() => String, { nullable: true }) duration?: string | null;
  @Field(() => [GalleryImageInput], { nullable: true }) galleryImage?: GalleryImageInput[] | null;
  @Field(() => [ProductCategoryInput], { nullable: true }) categories?: ProductCategoryInput[] | null;
  @Field(() => JSONObjectScalar, { nullable: true }) availabilityPeriods?: Record<string, unknown> | null;
  @Field(() => JSONObjectScalar, { nullable: true }) itinerary?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true }) isCancellable?: boolean | null;
  @Field(() => Int, { nullable: true }) cancellationCutOffAmount?: number | null;
  @Field(() => String, { nullable: true }) cancellationCutOffUnit?: string | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) cancellationCutOff?: LanguageText | null;
  @Field(() => Boolean, { nullable: true }) handiAccess?: boolean | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) modalitiesIncluded?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) modalitiesExcluded?: LanguageText | null;
  @Field(() => LanguageObjectScalar, { nullable: true }) modalitiesAdditionalInfo?: LanguageText | null;
  @Field(() => Float, { nullable: true }) estCommNet?: number | null;
  @Field(() => Float, { nullable: true }) estCommFrpricePerc?: number | null;
  @Field(() => Boolean, { nullable: true }) likelyToBeSoldOut?: boolean | null;
  @Field(() => Boolean, { nullable: true }) skipTheLine?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true }) metadata?: Record<string, unknown> | null;
}
