import { Directive, Field, InputType, ObjectType } from "type-graphql";
import { LanguageCodeScalar } from "./common.scalars.js";

/*
 * A text in one language, as every text in several languages is listed (a product's, a booking
 * setup's): shareable, since the catalogue and the booking subgraph both answer it.
 */

@Directive("@shareable")
@ObjectType({ description: "A text in one language" })
export class Translation {
  @Field(() => LanguageCodeScalar, { description: "Its language" }) language!: string;
  @Field(() => String, { description: "The text" }) text!: string;
}

@InputType({ description: "A text in one language" })
export class TranslationInput {
  @Field(() => LanguageCodeScalar, { description: "Its language, once in a list" }) language!: string;
  @Field(() => String, { description: "The text" }) text!: string;
}

/** A language object (language code to text, as documents keep texts) as translations, by language code. */
export const translationsOf = (texts: Record<string, string>): Translation[] =>
  Object.entries(texts)
    .map(([language, text]) => ({ language, text }))
    .sort((a, b) => (a.language < b.language ? -1 : 1));

/** The most languages-given-twice one refusal names. */
export const MAX_DUPLICATES_NAMED = 10;

/** The indexes of a list's items whose language an earlier item already gave. */
export function repeatedLanguages(translations: readonly { language: string }[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  translations.forEach(({ language }, index) => {
    if (seen.has(language)) repeated.push(index);
    seen.add(language);
  });
  return repeated;
}
