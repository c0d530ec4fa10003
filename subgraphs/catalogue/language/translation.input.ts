import { GraphQLError } from "graphql";
import type { FieldProblem } from "../../../core/errors.js";
import { badInput } from "../../../core/errors.js";
import type { LanguageText } from "../../../drizzle/schema.js";
import { MAX_DUPLICATES_NAMED, repeatedLanguages, type TranslationInput } from "../../common/translation.type.js";

/**
 * The language objects an input's translations were read into, by their path in spec 1's
 * document ("title", "categories[0].name"): where each language stood in its list, so that a
 * problem the catalogue's rules name by language ("title.en") names the input's item
 * ("title[1].text").
 */
export class TranslationPlaces {
  private readonly places = new Map<string, Map<string, number>>();
  private readonly duplicates: FieldProblem[] = [];

  /** The list as a language object, noting where each language stood; a language twice is a problem. */
  read(translations: TranslationInput[] | null | undefined, path: string, convert: (text: string) => string = (text) => text): LanguageText | null | undefined {
    if (!translations) return translations;
    const repeated = repeatedLanguages(translations);
    // One problem a list, and a few in all: a refusal does not grow with what a caller repeats.
    if (repeated.length && this.duplicates.length < MAX_DUPLICATES_NAMED) {
      const index = repeated[0];
      this.duplicates.push({ field: `${path}[${index}].language`, rule: "uniqueLanguage", message: `${path}[${index}].language: ${translations[index].language} is given twice` });
    }
    const seen = new Map<string, number>();
    translations.forEach(({ language }, index) => void (seen.has(language) || seen.set(language, index)));
    this.places.set(path, seen);
    return Object.fromEntries(translations.map(({ language, text }) => [language, convert(text)]));
  }

  /** A language given twice leaves the text unknown: refused before anything else is judged. */
  refuseDuplicates(): void {
    if (this.duplicates.length) throw badInput(this.duplicates.map((problem) => problem.message).join("; "), this.duplicates);
  }

  /** A refusal whose problems name languages of these objects, naming the input's items instead. */
  inInputTerms(error: unknown): unknown {
    const problems = error instanceof GraphQLError ? (error.extensions.problems as FieldProblem[] | undefined) : undefined;
    for (const problem of problems ?? []) problem.field = this.placeOf(problem.field);
    return error;
  }

  private placeOf(field: string): string {
    for (const [path, languages] of this.places) {
      if (!field.startsWith(`${path}.`)) continue;
      const index = languages.get(field.slice(path.length + 1));
      if (index !== undefined) return `${path}[${index}].text`;
    }
    return field;
  }
}

/** A language object as an input's translations. */
export const translationsOfObject = (texts: LanguageText | null | undefined, convert: (text: string) => string = (text) => text): TranslationInput[] | null | undefined =>
  texts ? Object.entries(texts).map(([language, text]) => ({ language, text: convert(text) })) : (texts as null | undefined);
