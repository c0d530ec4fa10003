/**
 * Spec 1 separates a text's lines with the two characters "/n" (experienceHighlights, an
 * unstructured itinerary); the graph's texts carry real line breaks. The catalogue keeps spec 1's
 * form, which its REST records answer as they are; the graph converts at its edge.
 */
const CONTRACT_SEPARATOR = "/n";

/** Spec 1's "/n" as real line breaks. */
export const withLineBreaks = (text: string): string => text.split(CONTRACT_SEPARATOR).join("\n");

/** Real line breaks (\n or \r\n) as spec 1's "/n". */
export const withContractSeparators = (text: string): string => text.replace(/\r?\n/g, CONTRACT_SEPARATOR);

/** Each language's text of a language object, converted. */
export function eachText<T extends Record<string, string> | null | undefined>(texts: T, convert: (text: string) => string): T {
  return (texts ? Object.fromEntries(Object.entries(texts).map(([language, text]) => [language, convert(text)])) : texts) as T;
}
