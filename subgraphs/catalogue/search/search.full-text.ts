import { sql, type SQL } from "drizzle-orm";

/**
 * Free text a caller searches with (a text criterion of `Search`, a recommendation interest), read
 * the way `websearch_to_tsquery` reads it: words, `"quoted phrases"`, a `-` before a word or phrase
 * to exclude it, and `or` between alternatives (the words around it are ANDed, AND binding
 * tighter). The tsquery is then built from each word or phrase with `phraseto_tsquery`, joined by
 * the tsquery operators `&&`, `||` and `!!` in SQL: a caller's text only ever reaches PostgreSQL as
 * the text of one word or phrase, which the text parser splits into lexemes and never reads as
 * operators. PostgreSQL's own parser of `websearch_to_tsquery` (and `to_tsquery`) fails on what
 * callers type, such as more than 32 `-` in a row ("tsquery stack too small"), and the statement
 * failed with it (docs/search.md, "Full-text values").
 */
export interface FullTextTerm {
  /** One word (as typed, punctuation and all) or the text of one quoted phrase. */
  text: string;
  exclude: boolean;
}

/** Alternatives (OR) of terms that must all hold (AND). */
export type FullTextQuery = FullTextTerm[][];

export const FULL_TEXT_LIMITS = {
  /** Words of one value, phrases' words included: a real search has a few; each becomes SQL of its own. */
  maxWords: 32,
  /** PostgreSQL keeps no longer lexeme in a tsvector (2047 bytes), so a longer word can never match. */
  maxWordBytes: 2047,
} as const;

/** What is wrong with a value, and where in it (0-based). */
export class FullTextProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "FullTextProblem";
  }
}

/** A letter or a digit: a word without one gives PostgreSQL's parser no lexeme at all. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/** Reads a value; throws FullTextProblem for what cannot be searched for. */
export function parseFullText(value: string): FullTextQuery {
  const groups: FullTextTerm[][] = [[]];
  let words = 0;
  /** Offset of a `-` waiting for the word or phrase it excludes. */
  let pendingExclusion = -1;
  /** A word or phrase came last: an `or` now joins two alternatives, as websearch_to_tsquery has it. */
  let afterOperand = false;
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    if (c === "-") {
      const start = i;
      while (value[i] === "-") i++;
      // websearch_to_tsquery nests a NOT per dash, and fails beyond 32 of them; `--word` means
      // nothing a caller would want either.
      if (pendingExclusion >= 0 || i - start > 1) {
        const first = pendingExclusion >= 0 ? pendingExclusion : start;
        throw new FullTextProblem(`exclude a word with one '-' before it, not ${dashesFrom(value, first)} in a row`, first);
      }
      pendingExclusion = start;
      continue;
    }
    const start = i;
    let text: string;
    if (c === '"') {
      const close = value.indexOf('"', i + 1);
      text = value.slice(i + 1, close < 0 ? value.length : close);
      i = close < 0 ? value.length : close + 1;
    } else {
      while (i < value.length && !SPACE.test(value[i]) && value[i] !== '"') i++;
      text = value.slice(start, i);
      // `or` first, last or after another `or` is a word (websearch_to_tsquery's rule).
      if (afterOperand && pendingExclusion < 0 && text.toLowerCase() === "or" && /\S/.test(value.slice(i))) {
        afterOperand = false;
        if (groups.at(-1)!.length) groups.push([]);
        continue;
      }
    }
    afterOperand = true;
    const exclude = pendingExclusion >= 0;
    pendingExclusion = -1;
    const termWords = text.split(/\s+/).filter((word) => WORD_CHARACTER.test(word));
    if (!termWords.length) continue;
    const long = termWords.find((word) => Buffer.byteLength(word) > FULL_TEXT_LIMITS.maxWordBytes);
    if (long) throw new FullTextProblem(`a word is longer than ${FULL_TEXT_LIMITS.maxWordBytes} bytes, more than the full-text index keeps`, start);
    words += termWords.length;
    if (words > FULL_TEXT_LIMITS.maxWords) throw new FullTextProblem(`at most ${FULL_TEXT_LIMITS.maxWords} words`, start);
    groups.at(-1)!.push({ text, exclude });
  }
  const query = groups.filter((group) => group.length);
  if (!query.length) throw new FullTextProblem("there is no word to search for (letters or digits)", 0);
  return query;
}

function dashesFrom(value: string, offset: number): number {
  let count = 0;
  for (let i = offset; i < value.length && (value[i] === "-" || SPACE.test(value[i])); i++) if (value[i] === "-") count++;
  return count;
}

/**
 * The tsquery of a parsed value in a text search configuration. SQL gives every operator the same
 * precedence, so each group and the whole are parenthesised.
 */
export function tsQuery(query: FullTextQuery, config: string): SQL {
  const term = (t: FullTextTerm) => {
    const words = sql`phraseto_tsquery(${config}::regconfig, ${t.text})`;
    return t.exclude ? sql`(!! ${words})` : words;
  };
  const group = (terms: FullTextTerm[]) => (terms.length === 1 ? term(terms[0]) : sql`(${sql.join(terms.map(term), sql` && `)})`);
  return query.length === 1 ? group(query[0]) : sql`(${sql.join(query.map(group), sql` || `)})`;
}
