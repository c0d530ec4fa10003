/*
 * What a link, an e-mail address and a telephone number must look like, wherever one is taken:
 * the catalogue's rules (REST bodies) and the graph's URL, EmailAddress and PhoneNumber scalars
 * judge by the same predicates, so a value one accepts the other accepts too. Values are kept as
 * given; nothing here rewrites them.
 */

/**
 * An absolute http or https URL with a host, without white space or control characters: what a
 * consumer can put in a link. `javascript:` and `data:` links, which a consumer's page would run,
 * are never one.
 */
export function isWebUrl(value: string): boolean {
  if (!/^https?:\/\/[^/?#\s]/i.test(value) || /[\s\p{Cc}]/u.test(value)) return false;
  return URL.canParse(value);
}

/** An address with one @, a local part and a domain with a dot, without white space. */
export const isEmailAddress = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * A telephone number as people write it: an optional leading +, then digits grouped by spaces,
 * hyphens, dots, slashes or parentheses, 5 to 15 digits (E.164's most), and an optional extension
 * (`ext. 12`, `x12`, `#12`). Not rewritten to E.164: a supplier's own way of writing it is kept.
 */
export function isPhoneNumber(value: string): boolean {
  const match = /^(\+?[0-9(][0-9 ()./-]*?)(?:\s*(?:ext\.?|x|#)\s*[0-9]{1,6})?$/i.exec(value);
  if (!match) return false;
  const digits = match[1].replace(/[^0-9]/g, "").length;
  return digits >= 5 && digits <= 15;
}
