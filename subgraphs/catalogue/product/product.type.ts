import { Directive, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { ConnectionOf, EdgeOf, OrderDirection } from "../../common/relay/relay.connection.js";
import { serialKeyOfGlobalId } from "../../../core/global-id.js";
import { JSONObjectScalar } from "../../common/json.scalars.js";
import { LocalizedText } from "../language/localized-text.type.js";
import { BookingEngine } from "../booking-engine/booking-engine.type.js";
import { GeoLocation, GeoLocationInput } from "../supplier/supplier.type.js";
import { UserError } from "../../common/user.errors.js";
import { CountryCodeScalar, CurrencyCodeScalar, DateTimeScalar, DecimalScalar, LanguageCodeScalar, UrlScalar } from "../../common/common.scalars.js";
import { AvailabilityPeriodsInput } from "./availability-periods.type.js";
import { closedSet } from "../../common/closed-set.enum.js";
import { TranslationInput } from "../../common/translation.type.js";
import { ItineraryInput } from "./itinerary.type.js";
import { availabilityTypes, cancellationCutOffUnits, pricingUnits, redemptionMethods } from "./product.rules.js";


export const AvailabilityType = closedSet(availabilityTypes);
export type AvailabilityType = (typeof availabilityTypes)[number];
registerEnumType(AvailabilityType, {
  name: "AvailabilityType",
  description: "How a product's times are given",
  valuesConfig: { START_TIME: { description: "Fixed start times" }, OPENING_HOURS: { description: "Opening hours: any time while open" } },
});

export const RedemptionMethod = closedSet(redemptionMethods);
registerEnumType(RedemptionMethod, {
  name: "RedemptionMethod",
  description: "How a ticket is redeemed",
  valuesConfig: {
    MANIFEST: { description: "The traveller's name is on the supplier's list" },
    DIGITAL: { description: "A ticket shown on a phone" },
    PRINT: { description: "A printed ticket" },
  },
});

export const PricingUnit = closedSet(pricingUnits);
registerEnumType(PricingUnit, {
  name: "PricingUnit",
  description: "What a product's price is for",
  valuesConfig: {
    PER_PERSON: { description: "One person" },
    PER_VEHICLE: { description: "One vehicle" },
    GROUP: { description: "A whole group" },
    FAMILY: { description: "A family" },
    PER_EQUIPMENT: { description: "One piece of equipment" },
    PACKAGE: { description: "A package" },
    PER_BOAT: { description: "One boat" },
  },
});

/** Spec 1 writes the units in lower case; the graph's enum values are upper case and stand for them. */
export const CancellationCutOffUnit = { HOUR: "hour", MINUTE: "minute", DAY: "day" } as const satisfies Record<string, (typeof cancellationCutOffUnits)[number]>;
registerEnumType(CancellationCutOffUnit, {
  name: "CancellationCutOffUnit",
  description: "The unit of a cancellation cut-off",
  valuesConfig: { HOUR: { description: "Hours" }, MINUTE: { description: "Minutes" }, DAY: { description: "Days" } },
});

@ObjectType({ description: "The commission a product's partner states (spec 1's estCommNet and estCommFrpricePerc), as given" })
export class ProductCommissionTerms {
  // Not Money: spec 1 lets a partner state it without a priceCurrency.
  @Field(() => DecimalScalar, { nullable: true, description: "The estimated net commission, an amount in priceCurrency" }) netCommission!: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'The estimated commission as a share of the retail price, 0 to 1: "0.2"' }) commissionRate!: string | null;
}

@InputType({ description: "The commission a partner states for a product (spec 1's estCommNet and estCommFrpricePerc)" })
export class ProductCommissionTermsInput {
  @Field(() => DecimalScalar, { nullable: true, description: "The estimated net commission, an amount in priceCurrency (0 to 10,000,000)" }) netCommission?: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: 'The estimated commission as a share of the retail price, 0 to 1: "0.2"' }) commissionRate?: string | null;
}

@ObjectType({ description: "Whether a product can be booked online in one language of its title" })
export class LanguageBookability {
  @Field(() => LanguageCodeScalar, { description: "A language of the product's title" }) language!: string;
  @Field(() => Boolean, { description: "Bookable online in it: live, not deprecated, and sold by the booking flow or given a booking URL in that language" }) bookable!: boolean;
}

@ObjectType({ description: "A country" })
export class Country {
  @Field(() => CountryCodeScalar, { description: "Its code" }) code!: string;
  @Field(() => LocalizedText, { description: "Its name in the caller's language, and in every language known" }) name!: LocalizedText;
}

@ObjectType({ description: "An image of a product's gallery" })
export class GalleryImage {
  @Field(() => String, { nullable: true, description: "Its title" }) title!: string | null;
  @Field(() => UrlScalar, { description: "Where it is" }) url!: string;
  @Field(() => Int, { nullable: true, description: "Position in the gallery" }) order!: number | null;
}

@ObjectType({ description: "A category a product's partner put it in" })
export class ProductCategory {
  @Field(() => Int, { description: "1 = category, 2 = subcategory, 3 = next level" }) level!: number;
  @Field(() => String, { description: "The code at that level: a taxonomy code at levels 1 and 2" }) code!: string;
  @Field(() => LocalizedText, { nullable: true, description: "Its name as the partner gave it" }) name!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "Its description as the partner gave it" }) description!: LocalizedText | null;
}

@ObjectType({ description: "An activity of the catalogue" })
@Directive('@key(fields: "id")')
// Bookings and booking reports refer to what was sold by the number they hold.
@Directive('@key(fields: "legacyResourceId")')
export class Product {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => Int, { description: "The product's number on the REST paths" }) legacyResourceId!: number;
  @Field(() => String, { description: "Its partner's identifier of it, unique in its booking engine" }) externalId!: string;
  /** The supplier's number; the graph answers the supplier (`supplier`). */
  supplierId!: number;
  @Field(() => LocalizedText, { description: "Its name, in the caller's language and in every language given" }) title!: LocalizedText;
  @Field(() => LocalizedText, { nullable: true, description: "A subtitle" }) subtitle!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "A short description" }) shortDescription!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "Its description" }) description!: LocalizedText | null;
  /** Spec 1's form ("/n" between lines); the graph answers real line breaks (product.resolver.ts). */
  experienceHighlights!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "Where it is booked on its partner's site, per language" }) bookingUrl!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "How long before the start it may still be cancelled, as text" }) cancellationCutOff!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "What the price includes" }) modalitiesIncluded!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "What the price leaves out" }) modalitiesExcluded!: LocalizedText | null;
  @Field(() => LocalizedText, { nullable: true, description: "What else a traveller should know" }) modalitiesAdditionalInfo!: LocalizedText | null;
  @Field(() => CountryCodeScalar, { nullable: true, description: "The country it takes place in" }) countryCode!: string | null;
  @Field(() => Country, { nullable: true, description: "The country it takes place in, with its name" }) country!: Country | null;
  @Field(() => String, { nullable: true, description: "The postal code of where it takes place" }) zipCode!: string | null;
  @Field(() => String, { nullable: true, description: "The city it takes place in" }) cityName!: string | null;
  @Field(() => Float, { nullable: true, description: "Its average rating, 0 to 5" }) rating!: number | null;
  @Field(() => Int, { nullable: true, description: "How many ratings the average is of" }) numberOfRatings!: number | null;
  @Field(() => String, { nullable: true, description: "The channel its content was uploaded through" }) channel!: string | null;
  @Field(() => String, { nullable: true, description: "Its partner's internal name for it" }) internalName!: string | null;
  @Field(() => String, { nullable: true, description: "Its partner's reference (the same meaning as externalId)" }) reference!: string | null;
  @Field(() => Boolean, { nullable: true, description: "Whether a booking is confirmed at once" }) instantConfirmation!: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Whether tickets are delivered at once" }) instantDelivery!: boolean | null;
  @Field(() => AvailabilityType, { nullable: true, description: "How its times are given" }) availabilityType!: string | null;
  @Field(() => RedemptionMethod, { nullable: true, description: "How its tickets are redeemed" }) redemptionMethod!: string | null;
  @Field(() => String, { nullable: true, description: "Its thumbnail image: a link, or an image identifier of its partner's (spec 1 allows both, so not a URL)" }) thumbnailImage!: string | null;
  @Field(() => BookingEngine, { description: "The engine the product is booked through" }) bookingEngine!: BookingEngine;
  /** Prices are answered as Money (product.resolver.ts). */
  minPrice!: number | null;
  maxPrice!: number | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "The currency of its prices" }) priceCurrency!: string | null;
  @Field(() => PricingUnit, { nullable: true, description: "What its price is for" }) pricingUnit!: string | null;
  @Field(() => Int, { nullable: true, description: "Its price quartile, 1 (cheapest) to 4" }) priceLevel!: number | null;
  averagePrice!: number | null;
  @Field(() => Int, { nullable: true, description: "The fewest participants a booking takes" }) minParticipants!: number | null;
  @Field(() => Int, { nullable: true, description: "The most participants a booking takes" }) maxParticipants!: number | null;
  @Field(() => String, { nullable: true, description: "The street address of where it takes place" }) address!: string | null;
  @Field(() => String, { nullable: true, description: "A map provider's identifier of the place" }) placeId!: string | null;
  @Field(() => UrlScalar, { nullable: true, description: "Its website" }) website!: string | null;
  @Field(() => GeoLocation, { nullable: true, description: "Where it takes place, as coordinates" }) geoLocation!: GeoLocation | null;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration" }) duration!: string | null;
  @Field(() => [GalleryImage], { description: "Its gallery, in order" }) galleryImages!: GalleryImage[];
  @Field(() => [ProductCategory], { description: "Its categories as its partner gave them; level 1 and 2 codes are codes of the activities taxonomy" }) categories!: ProductCategory[];
  /** Spec 1's document as kept; the graph answers it typed (product.resolver.ts). */
  availabilityPeriods!: Record<string, unknown> | null;
  /** Spec 1's document as kept; the graph answers it typed (product.resolver.ts). */
  itinerary!: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: "Whether a booking of it can be cancelled" }) isCancellable!: boolean | null;
  @Field(() => Int, { nullable: true, description: "How long before the start a booking may still be cancelled, in cancellationCutOffUnit" }) cancellationCutOffAmount!: number | null;
  @Field(() => CancellationCutOffUnit, { nullable: true, description: "The unit of cancellationCutOffAmount" }) cancellationCutOffUnit!: string | null;
  @Field(() => Boolean, { nullable: true, description: "Whether it is accessible to disabled people" }) handiAccess!: boolean | null;
  /** The partner's commission terms: answered as `commissionTerms`. */
  estCommNet!: number | null;
  estCommFrpricePerc!: number | null;
  @Field(() => Boolean, { nullable: true, description: "Whether places are few or demand is high" }) likelyToBeSoldOut!: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Whether it gives priority access" }) skipTheLine!: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: "Its partner's own metadata, as sent" }) metadata!: Record<string, unknown> | null;
  /** Per language of the title; the graph answers it as a list (product.resolver.ts). */
  onlineBookable!: Record<string, boolean>;
  @Field(() => Boolean, { description: "Deprecated by its partner: still listed to the partner, left out for consumers" }) deprecated!: boolean;
  /** For other subgraphs' service code (booking sells live products only); not in the client API. */
  @Directive("@inaccessible")
  @Field(() => Boolean, { description: "Deleted by its supplier: kept for the bookings and reports that refer to it" }) removed!: boolean;
  @Field(() => DateTimeScalar, { name: "createdAt", description: "When it was created" }) creationDate!: Date;
  @Field(() => DateTimeScalar, { name: "updatedAt", description: "When it last changed" }) updateDate!: Date;
}

export enum ProductSortField {
  TITLE = "TITLE",
  RATING = "RATING",
  NUMBER_OF_RATINGS = "NUMBER_OF_RATINGS",
  MIN_PRICE = "MIN_PRICE",
  MAX_PRICE = "MAX_PRICE",
  CITY_NAME = "CITY_NAME",
  CREATED_AT = "CREATED_AT",
  UPDATED_AT = "UPDATED_AT",
  ID = "ID",
}
registerEnumType(ProductSortField, {
  name: "ProductSortField",
  description: "What products can be ordered by; products without a value come last either way, and products of the same value by number",
  valuesConfig: {
    TITLE: { description: "The title in the caller's language (else English), without regard to case" },
    RATING: { description: "The average rating" },
    NUMBER_OF_RATINGS: { description: "How many ratings there are" },
    MIN_PRICE: { description: "The lowest price" },
    MAX_PRICE: { description: "The highest price" },
    CITY_NAME: { description: "The city, without regard to case" },
    CREATED_AT: { description: "When the product was created" },
    UPDATED_AT: { description: "When the product last changed" },
    ID: { description: "The product's number (legacyResourceId)" },
  },
});

@InputType({ description: "An order of products" })
export class ProductOrder {
  @Field(() => ProductSortField, { description: "What to order by" }) field!: ProductSortField;
  @Field(() => OrderDirection, { description: "Which way" }) direction!: OrderDirection;
}

export enum SupplierProductOrderField {
  ID = "ID",
}
registerEnumType(SupplierProductOrderField, {
  name: "SupplierProductOrderField",
  description: "What a supplier's products can be ordered by",
  valuesConfig: { ID: { description: "Their number (legacyResourceId), which follows the order they were added in" } },
});

@InputType({ description: "An order of a supplier's products" })
export class SupplierProductOrder {
  @Field(() => SupplierProductOrderField, { description: "What to order by" }) field!: SupplierProductOrderField;
  @Field(() => OrderDirection, { description: "Which way" }) direction!: OrderDirection;
}

@ObjectType({ description: "A product in a list of products" })
export class ProductEdge extends EdgeOf(Product) {}

@ObjectType({ description: "A list of products, a page at a time" })
export class ProductConnection extends ConnectionOf(Product, ProductEdge) {}

/** The number a product's global id names, or null. */
export const productKey = (id: string): number | null => serialKeyOfGlobalId(id, "Product");

/**
 * A precondition, not a second address: callers that name products under their supplier (REST's
 * paths) have the mutation refuse, changing nothing, when the product is not that supplier's.
 */
const SUPPLIER_GUARD = "When given, the supplier the product must belong to: NOT_FOUND, and nothing changes, when it is another's";

@InputType({ description: "An image of a product's gallery" })
export class GalleryImageInput {
  @Field(() => String, { nullable: true, description: "Its title" }) title?: string | null;
  @Field(() => String, { description: "Where it is: an absolute http or https URL of at most 512 characters" }) url!: string;
  @Field(() => Int, { nullable: true, description: "Its position in the gallery" }) order?: number | null;
}

@InputType({ description: "A category a product is in" })
export class ProductCategoryInput {
  @Field(() => Int, { description: "1 = category, 2 = subcategory, 3 = next level" }) level!: number;
  @Field(() => String, { description: "A taxonomy code at that level (see the taxonomy query)" }) code!: string;
  @Field(() => [TranslationInput], { nullable: true, description: "Its name per language" }) name?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Its description per language" }) description?: TranslationInput[] | null;
}

@InputType({ description: "Which of a supplier's products: every one unless narrowed" })
export class SupplierProductFilter {
  @Field(() => String, { nullable: true, description: "Only those in this country (ISO 3166-1 alpha-2)" }) countryCode?: string | null;
  @Field(() => String, { nullable: true, description: "Only those with this postal code" }) zipCode?: string | null;
  @Field(() => String, { nullable: true, description: "Only those in this city, without regard to case" }) cityName?: string | null;
  @Field(() => Float, { nullable: true, description: "Only those rated at least this (0 to 5)" }) rating?: number | null;
  @Field(() => Int, { nullable: true, description: "Only those with at least this many ratings" }) numberOfRatings?: number | null;
}

/** The fields a product is created with, and replaced with by an update (spec 1's request fields). */
@InputType()
abstract class ProductFields {
  @Field(() => String, { description: "The supplier's own identifier of the product (at most 255 characters), unique in the booking engine" }) externalId!: string;
  @Field(() => [TranslationInput], { description: "Its name per language (at most 255 characters each)" }) title!: TranslationInput[];
  @Field(() => CountryCodeScalar, { nullable: true, description: "The country it takes place in" }) countryCode?: string | null;
  @Field(() => String, { nullable: true, description: "Postal code (at most 20 characters)" }) zipCode?: string | null;
  @Field(() => String, { nullable: true, description: "City (at most 255 characters)" }) cityName?: string | null;
  @Field(() => Float, { nullable: true, description: "Average rating, 0 to 5" }) rating?: number | null;
  @Field(() => Int, { nullable: true, description: "How many ratings the average is of" }) numberOfRatings?: number | null;
  @Field(() => String, { nullable: true, description: "The channel its content is uploaded through (at most 32 characters)" }) channel?: string | null;
  @Field(() => String, { nullable: true, description: "The supplier's internal name (at most 255 characters)" }) internalName?: string | null;
  @Field(() => String, { nullable: true, description: "A second identifier on the supplier's side (at most 255 characters)" }) reference?: string | null;
  @Field(() => Boolean, { nullable: true, description: "Whether a booking is confirmed at once" }) instantConfirmation?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Whether tickets are delivered at once" }) instantDelivery?: boolean | null;
  @Field(() => AvailabilityType, { nullable: true, description: "How its times are given" }) availabilityType?: string | null;
  @Field(() => RedemptionMethod, { nullable: true, description: "How its tickets are redeemed" }) redemptionMethod?: string | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Subtitle per language" }) subtitle?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Short description per language" }) shortDescription?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Description per language" }) description?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Highlights per language, one a line" }) experienceHighlights?: TranslationInput[] | null;
  @Field(() => String, { nullable: true, description: "Its thumbnail image: a link, or an image identifier of its partner's (at most 255 characters)" }) thumbnailImage?: string | null;
  @Field(() => String, { nullable: true, description: "Booking engine name; the supplier's engine when not given" }) bookingEngine?: string | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Booking URL per language, each an absolute http or https URL of at most 2048 characters" }) bookingUrl?: TranslationInput[] | null;
  @Field(() => DecimalScalar, { nullable: true, description: "Lowest price, in priceCurrency (0 to 10,000,000)" }) minPrice?: string | null;
  @Field(() => DecimalScalar, { nullable: true, description: "Highest price, in priceCurrency; not below minPrice" }) maxPrice?: string | null;
  @Field(() => CurrencyCodeScalar, { nullable: true, description: "The currency of its prices; required with any price, and one the service converts" }) priceCurrency?: string | null;
  @Field(() => PricingUnit, { nullable: true, description: "What its price is for" }) pricingUnit?: string | null;
  @Field(() => Int, { nullable: true, description: "Price quartile, 1 to 4" }) priceLevel?: number | null;
  @Field(() => DecimalScalar, { nullable: true, description: "Average price (restaurants: the average meal price), in priceCurrency" }) averagePrice?: string | null;
  @Field(() => Int, { nullable: true, description: "Fewest participants" }) minParticipants?: number | null;
  @Field(() => Int, { nullable: true, description: "Most participants" }) maxParticipants?: number | null;
  @Field(() => String, { nullable: true, description: "Street address (at most 512 characters)" }) address?: string | null;
  @Field(() => String, { nullable: true, description: "A map provider's place identifier (at most 255 characters)" }) placeId?: string | null;
  @Field(() => String, { nullable: true, description: "Website: an absolute http or https URL of at most 512 characters" }) website?: string | null;
  @Field(() => GeoLocationInput, { nullable: true, description: "Where it takes place" }) geoLocation?: GeoLocationInput | null;
  @Field(() => String, { nullable: true, description: "ISO 8601 duration (PT3H)" }) duration?: string | null;
  @Field(() => [GalleryImageInput], { nullable: true, description: "Gallery images, in order" }) galleryImage?: GalleryImageInput[] | null;
  @Field(() => [ProductCategoryInput], { nullable: true, description: "Categories; level 1 and 2 codes are codes of the activities taxonomy" }) categories?: ProductCategoryInput[] | null;
  @Field(() => AvailabilityPeriodsInput, { nullable: true, description: "When it is open; open every day when not given" }) availabilityPeriods?: AvailabilityPeriodsInput | null;
  @Field(() => ItineraryInput, { nullable: true, description: "Its route" }) itinerary?: ItineraryInput | null;
  @Field(() => Boolean, { nullable: true, description: "Whether a booking may be cancelled" }) isCancellable?: boolean | null;
  @Field(() => Int, { nullable: true, description: "How long before the start a booking may still be cancelled, in cancellationCutOffUnit" }) cancellationCutOffAmount?: number | null;
  @Field(() => CancellationCutOffUnit, { nullable: true, description: "The unit of cancellationCutOffAmount; required with it" }) cancellationCutOffUnit?: string | null;
  @Field(() => [TranslationInput], { nullable: true, description: "The cancellation cut-off per language, as text" }) cancellationCutOff?: TranslationInput[] | null;
  @Field(() => Boolean, { nullable: true, description: "Whether it is accessible to disabled people" }) handiAccess?: boolean | null;
  @Field(() => [TranslationInput], { nullable: true, description: "What is included, per language" }) modalitiesIncluded?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "What is not included, per language" }) modalitiesExcluded?: TranslationInput[] | null;
  @Field(() => [TranslationInput], { nullable: true, description: "Further information, per language" }) modalitiesAdditionalInfo?: TranslationInput[] | null;
  @Field(() => ProductCommissionTermsInput, { nullable: true, description: "The commission the partner states" }) commissionTerms?: ProductCommissionTermsInput | null;
  @Field(() => Boolean, { nullable: true, description: "Few places left, or high demand" }) likelyToBeSoldOut?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Whether it gives priority access" }) skipTheLine?: boolean | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: "The partner's own data, kept as sent" }) metadata?: Record<string, unknown> | null;
}

@InputType({ description: "A new product of a supplier; when another supplier of the same booking engine holds its externalId, that product moves here with these fields" })
export class CreateProductInput extends ProductFields {
  @Field(() => ID, { description: "The supplier's global id" }) supplierId!: string;
}

@InputType({ description: "A product's new fields: every field is replaced, and one not given becomes unset" })
export class UpdateProductInput extends ProductFields {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: SUPPLIER_GUARD }) supplierId?: string | null;
}

@InputType({ description: "The product to delete" })
export class DeleteProductInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: SUPPLIER_GUARD }) supplierId?: string | null;
}

@InputType({ description: "The product to deprecate" })
export class DeprecateProductInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: SUPPLIER_GUARD }) supplierId?: string | null;
}

@InputType({ description: "The product to bring back from deprecation" })
export class UndeprecateProductInput {
  @Field(() => ID, { description: "The product's global id" }) productId!: string;
  @Field(() => ID, { nullable: true, description: SUPPLIER_GUARD }) supplierId?: string | null;
}

@ObjectType({ description: "The result of createProduct" })
export class CreateProductPayload {
  @Field(() => Product, { nullable: true, description: "The product as created or moved; null when refused" }) product?: Product | null;
  @Field(() => Boolean, { nullable: true, description: "True when the externalId belonged to another supplier's product, which moved to this supplier with the new fields; null when refused" })
  moved?: boolean | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of updateProduct" })
export class UpdateProductPayload {
  @Field(() => Product, { nullable: true, description: "The product as it is now; null when refused" }) product?: Product | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of deleteProduct" })
export class DeleteProductPayload {
  @Field(() => ID, { nullable: true, description: "The deleted product's global id; null when refused" }) deletedProductId?: string | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of deprecateProduct" })
export class DeprecateProductPayload {
  @Field(() => Product, { nullable: true, description: "The product as it is now; null when refused" }) product?: Product | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of undeprecateProduct" })
export class UndeprecateProductPayload {
  @Field(() => Product, { nullable: true, description: "The product as it is now; null when refused" }) product?: Product | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}
