import { Field, Int, ObjectType } from "type-graphql";
import { LocalizedText } from "../language/localized-text.js";

@ObjectType({ description: "A node of the activities taxonomy (spec 3)" })
export class TaxonomyNode {
  @Field(() => String) uuid!: string;
  @Field(() => String, { description: "family + level 1 + level 2, hyphenated" }) slug!: string;
  @Field(() => String, { description: "What content partners send in a product's categories" }) code!: string;
  @Field(() => String) family!: string;
  @Field(() => Int) level!: number;
  @Field(() => LocalizedText) name!: LocalizedText;
  @Field(() => String, { description: "Own uuid at the top; 'parent#child' for children" }) parentUuid!: string;
  @Field(() => String, { nullable: true, description: "'Parent#Child' in English, children only" }) nameFullPath!: string | null;
  @Field(() => Int) version!: number;
  @Field(() => Boolean) isCurrent!: boolean;
  @Field(() => String, { description: "YYYY-MM-DD" }) startDate!: string;
  @Field(() => [TaxonomyNode], { description: "Level 2 nodes of a level 1 node" }) children!: TaxonomyNode[];
}

@ObjectType()
export class Descriptor {
  @Field(() => String, { description: "PROMOTED or EXCLUDED" }) type!: string;
  @Field(() => String, { description: "PROMOTED or DEPRECATED" }) reason!: string;
}
