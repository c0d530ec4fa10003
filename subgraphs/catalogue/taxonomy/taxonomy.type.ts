import { Directive, Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateScalar, UuidScalar } from "../../common/common.scalars.js";
import { LocalizedText } from "../language/localized-text.type.js";

/** The values are the taxonomy's own (`activities`); the graph names them in upper case. */
export enum TaxonomyFamily {
  ACTIVITIES = "activities",
}
registerEnumType(TaxonomyFamily, {
  name: "TaxonomyFamily",
  description: "Which taxonomy a node belongs to",
  valuesConfig: { ACTIVITIES: { description: "The activities taxonomy: categories (level 1) and their subcategories (level 2)" } },
});

@ObjectType({ description: "A category (level 1) or subcategory (level 2) of the activities taxonomy" })
@Directive('@key(fields: "id")')
export class TaxonomyNode {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The node's id on the REST paths" }) legacyResourceId!: string;
  @Field(() => String, { description: "Its family, level 1 and level 2 names, hyphenated" }) slug!: string;
  @Field(() => String, { description: "What content partners send in a product's categories" }) code!: string;
  @Field(() => TaxonomyFamily, { description: "The taxonomy it belongs to" }) family!: TaxonomyFamily;
  @Field(() => Int, { description: "1 for a category, 2 for a subcategory" }) level!: number;
  @Field(() => LocalizedText, { description: "Its name in the caller's language" }) name!: LocalizedText;
  @Field(() => Int, { description: "The taxonomy's version it is part of" }) version!: number;
  @Field(() => Boolean, { description: "Part of the current taxonomy" }) isCurrent!: boolean;
  @Field(() => DateScalar, { description: "Since when it is part of the taxonomy" }) startDate!: string;
  /** The parent's id (a level 2 node's); resolved by the `parent` field. */
  parentKey!: string | null;
  // parent and children are resolved by field resolvers.
}

/** What the catalogue flags a product with: only what it flags today (spec 3 also names PROMOTED, which nothing sets). */
export enum DescriptorType {
  EXCLUDED = "EXCLUDED",
}
registerEnumType(DescriptorType, { name: "DescriptorType", description: "How a product is flagged", valuesConfig: { EXCLUDED: { description: "Left out of consumer searches and lists" } } });

export enum DescriptorReason {
  DEPRECATED = "DEPRECATED",
}
registerEnumType(DescriptorReason, { name: "DescriptorReason", description: "Why a product is flagged", valuesConfig: { DEPRECATED: { description: "Its partner deprecated it" } } });

@ObjectType({ description: "A flag on a product, with its reason" })
export class Descriptor {
  @Field(() => DescriptorType, { description: "How it is flagged" }) type!: string;
  @Field(() => DescriptorReason, { description: "Why" }) reason!: string;
}
