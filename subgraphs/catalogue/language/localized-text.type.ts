import { Ctx, FieldResolver, ObjectType, Resolver, Root } from "type-graphql";
import type { LanguageText } from "../../../drizzle/schema.js";
import type { SubgraphContext } from "../../common/subgraph.context.js";
import { LanguageCodeScalar } from "../../common/common.scalars.js";
import { Translation, translationsOf } from "../../common/translation.type.js";

@ObjectType({ description: "A text in several languages: `text` in the caller's language (Accept-Language, then en), `translations` all of them" })
export class LocalizedText {
  /** Language code → text, as kept; the graph answers it as a list (LocalizedTextResolver). */
  translations!: LanguageText;
}

/** The language `text` is in: the first accepted language present, then en, then any. */
export function chosenLanguage(translations: LanguageText, languages: readonly string[]): string | null {
  for (const language of languages) if (typeof translations[language] === "string") return language;
  return Object.keys(translations)[0] ?? null;
}

@Resolver(() => LocalizedText)
export class LocalizedTextResolver {
  @FieldResolver(() => String, { nullable: true, description: "The text in the caller's language (Accept-Language, then en, then any); null when there is none" })
  text(@Root() root: LocalizedText, @Ctx() ctx: SubgraphContext): string | null {
    return textIn(root.translations, ctx.languages);
  }

  @FieldResolver(() => [Translation], { description: "Every language's text, by language code" })
  translations(@Root() root: LocalizedText): Translation[] {
    return translationsOf(root.translations);
  }

  @FieldResolver(() => LanguageCodeScalar, { nullable: true, description: "The language of `text`" })
  language(@Root() root: LocalizedText, @Ctx() ctx: SubgraphContext): string | null {
    return chosenLanguage(root.translations, ctx.languages);
  }
}

/** What `text` answers: the translation in the chosen language. */
export function textIn(translations: LanguageText, languages: readonly string[]): string | null {
  const language = chosenLanguage(translations, languages);
  return language ? translations[language] : null;
}

export const localized = (translations: LanguageText | null | undefined): LocalizedText | null => (translations ? { translations } : null);
