import { extractTextItems } from "unpdf";

/**
 * The text of a PDF's first page as a reader's extractor sees it (pdf.js through unpdf), one string per baseline from
 * the top: runs drawn side by side in different fonts on one baseline join into one line.
 */
export async function pdfLines(pdf: Uint8Array): Promise<string[]> {
  // pdf.js takes ownership of the buffer it is given; a copy leaves the caller's bytes usable.
  const { items } = await extractTextItems(new Uint8Array(pdf));
  const lines = new Map<number, { x: number; str: string }[]>();
  for (const item of items[0] ?? []) {
    if (item.str === "") continue;
    const y = Math.round(item.y);
    lines.set(y, [...(lines.get(y) ?? []), { x: item.x, str: item.str }]);
  }
  return [...lines.entries()]
    .sort(([a], [b]) => b - a)
    .map(([, parts]) =>
      parts
        .sort((a, b) => a.x - b.x)
        .map((p) => p.str)
        .join(""),
    );
}

/** How far right any text of the first page reaches, in points, as the extractor measures the glyphs drawn. */
export async function pdfRightmostEdge(pdf: Uint8Array): Promise<number> {
  const { items } = await extractTextItems(new Uint8Array(pdf));
  return Math.max(...(items[0] ?? []).filter((i) => i.str !== "").map((i) => i.x + i.width));
}
