/**
 * The `Search` expression of spec 3: criteria `field:value`, joined with AND or OR, with the
 * operators ^ (starts with), < and > (numeric bounds) and ~ (approximate, typo-tolerant).
 * The grammar is in docs/search.md; this is its recursive-descent parser.
 *
 *   expression := orTerm
 *   orTerm     := andTerm ( "OR" andTerm )*
 *   andTerm    := factor ( "AND" factor )*
 *   factor     := "(" expression ")" | criterion
 *   criterion  := FIELD ":" [ "^" | "<" | ">" | "~" ] VALUE
 *   VALUE      := QUOTED | WORD
 */

export type SearchOperator = "=" | "^" | "<" | ">" | "~";

export type SearchNode =
  | {
      kind: "criterion";
      field: string;
      operator: SearchOperator;
      value: string;
      /** Zero-based offsets of the field and of the value (its opening quotation mark when quoted). */
      position: number;
      valuePosition: number;
    }
  | { kind: "and" | "or"; operands: SearchNode[] };

export class SearchSyntaxError extends Error {
  constructor(
    message: string,
    /** Zero-based character offset of the problem in the expression. */
    readonly position: number,
  ) {
    super(`${message} (at character ${position + 1})`);
    this.name = "SearchSyntaxError";
  }
}

type Token =
  | { type: "word" | "quoted"; text: string; position: number }
  | { type: "colon" | "open" | "close" | "operator"; text: string; position: number }
  | { type: "end"; text: ""; position: number };

const MAX_LENGTH = 2000;
const MAX_CRITERIA = 20;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ type: c === "(" ? "open" : "close", text: c, position: i });
      i++;
    } else if (c === ":") {
      tokens.push({ type: "colon", text: c, position: i });
      i++;
    } else if (c === '"') {
      const start = i;
      let text = "";
      i++;
      while (i < input.length && input[i] !== '"') {
        if (input[i] === "\\" && i + 1 < input.length) i++;
        text += input[i];
        i++;
      }
      if (i >= input.length) throw new SearchSyntaxError("Unclosed quotation mark", start);
      i++;
      tokens.push({ type: "quoted", text, position: start });
    } else {
      const start = i;
      // An operator directly after a colon belongs to the criterion, not to the word.
      if ("^<>~".includes(c) && tokens.at(-1)?.type === "colon") {
        tokens.push({ type: "operator", text: c, position: i });
        i++;
        continue;
      }
      while (i < input.length && !/[\s():"]/.test(input[i])) i++;
      tokens.push({ type: "word", text: input.slice(start, i), position: start });
    }
  }
  tokens.push({ type: "end", text: "", position: input.length });
  return tokens;
}

/** Parses an expression; throws SearchSyntaxError saying what is wrong and where. */
export function parseSearch(input: string): SearchNode {
  if (input.length > MAX_LENGTH) throw new SearchSyntaxError(`The expression is longer than ${MAX_LENGTH} characters`, MAX_LENGTH);
  if (input.trim() === "") throw new SearchSyntaxError("The expression is empty: give at least one criterion such as title:museum", 0);
  const parser = new SearchParser(tokenize(input));
  const tree = parser.expression();
  const rest = parser.peek();
  if (rest.type !== "end") {
    throw new SearchSyntaxError(
      rest.type === "close" ? "Unexpected closing parenthesis" : `Expected AND, OR or the end, found ${describe(rest)}`,
      rest.position,
    );
  }
  return tree;
}

const isKeyword = (token: Token, keyword: "AND" | "OR") => token.type === "word" && token.text.toUpperCase() === keyword;

/** The grammar's rules, one method each, over the tokens from the current one on. */
class SearchParser {
  private index = 0;
  private criteria = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.index];
  }

  expression(): SearchNode {
    const operands = [this.andTerm()];
    while (isKeyword(this.peek(), "OR")) {
      this.index++;
      operands.push(this.andTerm());
    }
    return operands.length === 1 ? operands[0] : { kind: "or", operands };
  }

  private andTerm(): SearchNode {
    const operands = [this.factor()];
    while (isKeyword(this.peek(), "AND")) {
      this.index++;
      operands.push(this.factor());
    }
    return operands.length === 1 ? operands[0] : { kind: "and", operands };
  }

  private factor(): SearchNode {
    if (this.peek().type !== "open") return this.criterion();
    this.index++;
    const inner = this.expression();
    if (this.peek().type !== "close") throw new SearchSyntaxError("Expected a closing parenthesis", this.peek().position);
    this.index++;
    return inner;
  }

  private criterion(): SearchNode {
    const field = this.peek();
    if (field.type === "end") throw new SearchSyntaxError("Expected a criterion field:value but the expression ends", field.position);
    if (field.type !== "word" || isKeyword(field, "AND") || isKeyword(field, "OR")) {
      throw new SearchSyntaxError(`Expected a field name, found ${describe(field)}`, field.position);
    }
    this.index++;
    if (this.peek().type !== "colon") throw new SearchSyntaxError(`Expected ':' after the field ${field.text}`, this.peek().position);
    this.index++;
    let operator: SearchOperator = "=";
    if (this.peek().type === "operator") {
      operator = this.peek().text as SearchOperator;
      this.index++;
    }
    const value = this.peek();
    if (value.type !== "word" && value.type !== "quoted") throw new SearchSyntaxError(`Expected a value for ${field.text}, found ${describe(value)}`, value.position);
    if (value.text.trim() === "") throw new SearchSyntaxError(`The value of ${field.text} is empty`, value.position);
    this.index++;
    if (++this.criteria > MAX_CRITERIA) throw new SearchSyntaxError(`At most ${MAX_CRITERIA} criteria`, field.position);
    return { kind: "criterion", field: field.text, operator, value: value.text, position: field.position, valuePosition: value.position };
  }
}

function describe(token: Token): string {
  if (token.type === "end") return "the end";
  if (token.type === "quoted") return `"${token.text}"`;
  return `'${token.text}'`;
}

