/** The graph's translations as spec 1's language object: language code → text. */
export type Translations = { language: string; text: string }[];

export const languageObjectOf = (translations: Translations): Record<string, string> => Object.fromEntries(translations.map(({ language, text }) => [language, text]));

/** The selection of a LocalizedText that REST writes as a language object. */
export const TRANSLATIONS = "translations { language text }";
