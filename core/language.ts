const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$|^\*$/i;

/**
 * Languages the caller accepts, best first, as lower-case ISO 639-1 codes (`en-GB` gives `en`),
 * always ending with the `en` fallback the contract names.
 */
export function acceptedLanguages(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  const ranked = value
    .split(",")
    .map((part, position) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, position };
    })
    .filter((entry) => entry.weight > 0 && LANGUAGE_TAG.test(entry.tag) && entry.tag !== "*")
    .sort((a, b) => b.weight - a.weight || a.position - b.position)
    .map((entry) => entry.tag.split("-")[0].toLowerCase());
  return [...new Set([...ranked, "en"])];
}
