import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliDecompress } from "node:zlib";
import fontkit, { type Font as FontkitFont } from "@pdf-lib/fontkit";
import { degrees, PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, type RGB } from "pdf-lib";

export interface VoucherContent {
  bookingId: string;
  bookingCode: string;
  productTitle: string;
  supplierName?: string;
  startsAt: string; // e.g. "2026-12-01T09:00:00+01:00[Europe/Paris]"
  participants: { label: string; quantity: number }[];
  options: { label: string; value: string }[];
  resellerRef: string;
  leadTraveller?: string;
  /** The code the supplier's ticket is scanned by, when its system gives one. */
  supplierCode?: string;
  total: { retail: number; currency: string };
  issuedAt: Date;
  environment: "sandbox" | "production"; // sandbox vouchers carry a visible "TEST - NOT VALID FOR ENTRY" banner
}

export const SANDBOX_BANNER = "TEST - NOT VALID FOR ENTRY";

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 56;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FOOTER_HEIGHT = 40;
const BANNER_HEIGHT = 30;
const LINE_SPACING = 1.3;

const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.42, 0.42, 0.42);
const WARNING = rgb(0.78, 0.1, 0.1);
const WHITE = rgb(1, 1, 1);

type Style = "regular" | "bold";

interface Line {
  text: string;
  style: Style;
  size: number;
  color: RGB;
  spaceBefore: number;
}

/** One font file, with the code points it has a glyph for (read once: the Japanese faces are 5 MB each). */
interface Face {
  bytes: Uint8Array;
  font: FontkitFont;
  covers: ReadonlySet<number>;
}

/** Per style, the faces in fallback order: a character is drawn by the first face that has it. */
type Faces = Record<Style, readonly Face[]>;

/**
 * The four faces the voucher draws with, brotli-compressed beside this file (fonts/README.md): the packages they came
 * from hold every weight, 62 MB of an install for these 12.
 */
const FONT_FILES: Record<Style, readonly string[]> = {
  regular: ["NotoSans-Regular.ttf.br", "NotoSansJP-Regular.ttf.br"],
  bold: ["NotoSans-Bold.ttf.br", "NotoSansJP-Bold.ttf.br"],
};

/**
 * Noto Sans has Devanagari glyphs, but pdf-lib draws glyphs at their advances and ignores the font's positioning, so
 * vowel signs and conjuncts would print misplaced: a '?' is honest where a garbled name is not.
 */
const NEEDS_SHAPING = /\p{Script=Devanagari}/u;

let facesOnce: Promise<Faces> | undefined;
const unbrotli = promisify(brotliDecompress);

function loadFaces(): Promise<Faces> {
  facesOnce ??= (async () => {
    // Decompressed on the thread pool: a Japanese face takes 60 ms, which the event loop keeps for requests.
    const load = async (file: string): Promise<Face> => {
      const bytes = new Uint8Array(await unbrotli(await readFile(new URL(`fonts/${file}`, import.meta.url))));
      const font = fontkit.create(bytes);
      return { bytes, font, covers: new Set(font.characterSet.filter((codePoint) => !NEEDS_SHAPING.test(String.fromCodePoint(codePoint)))) };
    };
    return { regular: await Promise.all(FONT_FILES.regular.map(load)), bold: await Promise.all(FONT_FILES.bold.map(load)) };
  })();
  // A failed read must not stick: the next voucher tries again.
  facesOnce.catch(() => (facesOnce = undefined));
  return facesOnce;
}

/**
 * Keeps what some face can show, falls back to the base letters (strip diacritics via NFKD) and marks the rest with
 * '?', so a supplier's title in a script no face covers still produces a voucher.
 */
function printable(text: string, covered: (codePoint: number) => boolean): string {
  const has = (c: string): boolean => covered(c.codePointAt(0) ?? -1);
  let out = "";
  // NFC first so a decomposed "e" + U+0301 is kept as the covered "é" instead of losing its accent.
  for (const char of text.normalize("NFC").replace(/\s+/gu, " ")) {
    if (has(char)) {
      out += char;
      continue;
    }
    const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
    // A lone combining mark decomposes to nothing: it is a stripped diacritic, not a missing character.
    out += [...base].every(has) ? base : "?";
  }
  return out.trim();
}

function printableIn(faces: Faces, style: Style, text: string): string {
  return printable(text, (codePoint) => faces[style].some((f) => f.covers.has(codePoint)));
}

/** The faces embedded in one document, subset to the glyphs it uses, and the text measured and drawn with them. */
class Typeset {
  private constructor(
    private readonly faces: Faces,
    private readonly fonts: Map<Face, PDFFont>,
  ) {}

  private readonly widths: Record<Style, Map<string, number>> = { regular: new Map(), bold: new Map() };

  /**
   * Embeds only the faces these (printable) texts need: an unused Japanese subset would still cost a font program in
   * every PDF.
   */
  static async for(doc: PDFDocument, faces: Faces, texts: [string, Style][]): Promise<Typeset> {
    const needed = new Set<Face>();
    for (const [text, style] of texts) {
      for (const char of text) needed.add(Typeset.faceOf(faces[style], char));
    }
    const fonts = new Map<Face, PDFFont>();
    // In the fixed face order, so identical content embeds identically (pdf-lib names subsets from a seeded sequence).
    for (const face of [...faces.regular, ...faces.bold]) {
      // Without ccmp: Noto Sans decomposes letters such as "ị" into a base and a mark that pdf-lib cannot position (it
      // ignores GPOS) and that extractors read back as "i-"; the precomposed glyph is right where the font has one.
      if (needed.has(face)) fonts.set(face, await doc.embedFont(face.bytes, { subset: true, features: { ccmp: false } }));
    }
    return new Typeset(faces, fonts);
  }

  private static faceOf(faces: readonly Face[], char: string): Face {
    const codePoint = char.codePointAt(0) ?? -1;
    return faces.find((f) => f.covers.has(codePoint)) ?? faces[0];
  }

  /** Printable text split where the drawing face changes. */
  runs(text: string, style: Style): { text: string; font: PDFFont }[] {
    const runs: { text: string; face: Face }[] = [];
    for (const char of text) {
      const face = Typeset.faceOf(this.faces[style], char);
      const last = runs.at(-1);
      if (last?.face === face) last.text += char;
      else runs.push({ text: char, face });
    }
    return runs.map((r) => ({ text: r.text, font: this.fonts.get(r.face)! }));
  }

  /** Width at size 1, remembered: wrapping measures the same words and characters over and over, and shaping is slow. */
  private measure(text: string, style: Style): number {
    const known = this.widths[style].get(text);
    if (known !== undefined) return known;
    const width = this.runs(text, style).reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, 1), 0);
    this.widths[style].set(text, width);
    return width;
  }

  width(text: string, style: Style, size: number): number {
    return this.measure(text, style) * size;
  }

  draw(page: PDFPage, text: string, style: Style, options: { x: number; y: number; size: number; color: RGB }): void {
    let x = options.x;
    for (const run of this.runs(text, style)) {
      page.drawText(run.text, { ...options, x, font: run.font });
      x += run.font.widthOfTextAtSize(run.text, options.size);
    }
  }

  /**
   * Greedy word wrap; a word wider than the line (a URL, a long code, a Japanese sentence) is broken between
   * characters. A line's width is the sum of its words' and spaces' widths: pdf-lib draws glyph advances without
   * kerning, and no face substitutes glyphs across a space.
   */
  wrap(text: string, style: Style, size: number, maxWidth: number): string[] {
    const limit = maxWidth / size;
    const space = this.measure(" ", style);
    const lines: string[] = [];
    let current = "";
    let currentWidth = 0;
    for (const word of text.split(" ").filter((w) => w.length > 0)) {
      const width = this.measure(word, style);
      const candidate = current === "" ? width : currentWidth + space + width;
      if (candidate <= limit) {
        current = current === "" ? word : `${current} ${word}`;
        currentWidth = candidate;
        continue;
      }
      if (current !== "") lines.push(current);
      current = word;
      currentWidth = width;
      if (width <= limit) continue;
      // Summed per character: it misses only a ligature's difference, a fraction of a character.
      current = "";
      currentWidth = 0;
      for (const char of word) {
        const charWidth = this.measure(char, style);
        if (current !== "" && currentWidth + charWidth > limit) {
          lines.push(current);
          current = "";
          currentWidth = 0;
        }
        current += char;
        currentWidth += charWidth;
      }
    }
    if (current !== "") lines.push(current);
    return lines;
  }
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Shows the wall-clock time as written, in the activity's own zone: that is when the traveller must turn up, whatever
 * zone the voucher is printed in. Hand-formatted so output does not depend on the ICU data of the host.
 */
export function formatStartsAt(startsAt: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?(?:\[([^\]]+)\])?$/.exec(startsAt.trim());
  if (!match) return startsAt;
  const [, y, m, d, hh, mm, offset, zone] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(m) - 1) return startsAt;
  const where = zone ?? (offset === undefined ? undefined : offset === "Z" ? "UTC" : `UTC${offset}`);
  const day = `${WEEKDAYS[date.getUTCDay()]} ${Number(d)} ${MONTHS[date.getUTCMonth()]} ${y}, ${hh}:${mm}`;
  return where === undefined ? day : `${day} (${where})`;
}

/** ISO codes rather than symbols: unambiguous ("$") and printable whatever the currency. */
export function formatTotal(total: { retail: number; currency: string }): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: total.currency, currencyDisplay: "code" }).format(total.retail);
  } catch {
    // An unknown currency code must not prevent the voucher; show the amount as given.
    return `${total.currency} ${total.retail}`;
  }
}

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== "";

const TRUNCATED = "\u2026 (truncated)";

/**
 * A one-page A4 PDF voucher. Text is set in Noto Sans (Latin, Greek, Cyrillic) falling back to Noto Sans JP (kana,
 * kanji), each subset to the glyphs used; a character neither has is transliterated where possible (strip diacritics
 * via NFKD) and otherwise replaced with '?', so any product title renders. Long lines wrap. Sets PDF metadata title
 * "Voucher <bookingCode>" and creation date issuedAt (so output is deterministic for the same content).
 */
export async function renderVoucherPdf(content: VoucherContent): Promise<Uint8Array> {
  const faces = await loadFaces();
  const doc = await voucherDocument(content, faces);
  const blocks = voucherBlocks(content, faces);
  const footer = [`Booking ID: ${content.bookingId}`, `Issued: ${content.issuedAt.toISOString()}`].map((text) => printableIn(faces, "regular", text));

  const sandbox = content.environment === "sandbox";
  const type = await Typeset.for(doc, faces, [
    ...blocks.map((b): [string, Style] => [b.text, b.style]),
    ...footer.map((text): [string, Style] => [text, "regular"]),
    [TRUNCATED, "regular"],
    ...(sandbox ? [[SANDBOX_BANNER, "bold"] as [string, Style]] : []),
  ]);

  const page = doc.addPage(PageSizes.A4);
  if (sandbox) drawSandboxMarks(page, type);

  const lines = blocks.flatMap((b) =>
    type.wrap(b.text, b.style, b.size, TEXT_WIDTH).map((text, i): Line => ({ ...b, text, spaceBefore: i === 0 ? b.spaceBefore : 0 })),
  );
  const top = PAGE_HEIGHT - MARGIN - (sandbox ? BANNER_HEIGHT + 12 : 0);
  drawBody(page, type, fitToPage(lines, top - (MARGIN + FOOTER_HEIGHT)), top);
  drawFooter(page, type, footer);
  return doc.save({ useObjectStreams: false });
}

/** The document with its metadata, its fonts taken from the faces already parsed. */
async function voucherDocument(content: VoucherContent, faces: Faces): Promise<PDFDocument> {
  const faceFonts = new Map([...faces.regular, ...faces.bold].map((f) => [f.bytes, f.font]));
  // Without updateMetadata: false pdf-lib stamps the current time, and identical content would give different bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  // pdf-lib parses the font file at every embedding; hand it the parsed face instead (a second parse of the Japanese
  // fonts takes most of a voucher's rendering time). Subsets are built per document, so sharing the face is safe.
  doc.registerFontkit({ create: (bytes) => faceFonts.get(bytes) ?? fontkit.create(bytes) });
  doc.setTitle(`Voucher ${content.bookingCode}`);
  doc.setCreator("activities-service");
  doc.setProducer("pdf-lib");
  doc.setCreationDate(content.issuedAt);
  doc.setModificationDate(content.issuedAt);
  return doc;
}

/** The voucher's text, top to bottom: what it is, its code, the product, then each field that has a value. */
function voucherBlocks(content: VoucherContent, faces: Faces): Line[] {
  const blocks: Line[] = [];
  const add = (text: string, style: Style, size: number, color: RGB, spaceBefore = 0): void => {
    blocks.push({ text: printableIn(faces, style, text), style, size, color, spaceBefore });
  };
  const field = (label: string, values: string[]): void => {
    const shown = values.filter(present);
    if (shown.length === 0) return;
    add(label.toUpperCase(), "bold", 9, MUTED, 14);
    for (const value of shown) add(value, "regular", 12, INK, 2);
  };

  add("Voucher", "bold", 24, INK);
  add(content.bookingCode, "bold", 30, INK, 10);
  add(content.productTitle, "bold", 16, INK, 18);
  if (present(content.supplierName)) add(`Supplied by ${content.supplierName}`, "regular", 11, MUTED, 4);
  field("Date and time", [formatStartsAt(content.startsAt)]);
  field(
    "Participants",
    content.participants.map((p) => `${p.quantity} x ${p.label}`),
  );
  field(
    "Options",
    content.options.map((o) => `${o.label}: ${o.value}`),
  );
  field("Reseller reference", [content.resellerRef]);
  if (present(content.leadTraveller)) field("Lead traveller", [content.leadTraveller]);
  if (present(content.supplierCode)) field("Supplier's ticket code", [content.supplierCode]);
  field("Total", [formatTotal(content.total)]);
  return blocks;
}

function drawFooter(page: PDFPage, type: Typeset, footer: string[]): void {
  footer.forEach((text, i) => {
    // Footer lines are cut rather than wrapped: their space is reserved and must not grow into the body.
    const [first = ""] = type.wrap(text, "regular", 8, TEXT_WIDTH);
    type.draw(page, first, "regular", { x: MARGIN, y: MARGIN + (footer.length - 1 - i) * 11, size: 8, color: MUTED });
  });
}

const lineHeight = (line: Line): number => line.spaceBefore + line.size * LINE_SPACING;

/** The voucher must stay one page, so overly long content is cut and the cut is made visible. */
function fitToPage(lines: Line[], available: number): Line[] {
  const total = lines.reduce((sum, l) => sum + lineHeight(l), 0);
  if (total <= available) return lines;
  const marker: Line = { text: TRUNCATED, style: "regular", size: 10, color: MUTED, spaceBefore: 4 };
  const kept: Line[] = [];
  let used = lineHeight(marker);
  for (const line of lines) {
    if (used + lineHeight(line) > available) break;
    kept.push(line);
    used += lineHeight(line);
  }
  return [...kept, marker];
}

function drawBody(page: PDFPage, type: Typeset, lines: Line[], top: number): void {
  let y = top;
  for (const line of lines) {
    y -= line.spaceBefore + line.size;
    type.draw(page, line.text, line.style, { x: MARGIN, y, size: line.size, color: line.color });
    y -= line.size * (LINE_SPACING - 1);
  }
}

/** A banner alone can be trimmed off a printout; the faint diagonal repeat keeps a cut-down test voucher recognisable. */
function drawSandboxMarks(page: PDFPage, type: Typeset): void {
  const bannerY = PAGE_HEIGHT - MARGIN - BANNER_HEIGHT;
  page.drawRectangle({ x: MARGIN, y: bannerY, width: TEXT_WIDTH, height: BANNER_HEIGHT, color: WARNING });
  const size = 14;
  const width = type.width(SANDBOX_BANNER, "bold", size);
  type.draw(page, SANDBOX_BANNER, "bold", { x: MARGIN + (TEXT_WIDTH - width) / 2, y: bannerY + (BANNER_HEIGHT - size) / 2 + 3, size, color: WHITE });

  const markSize = 40;
  const half = type.width(SANDBOX_BANNER, "bold", markSize) / 2;
  const angle = Math.PI / 4;
  // The banner is Latin: one run in the first bold face, drawn as one rotated string.
  const [{ font }] = type.runs(SANDBOX_BANNER, "bold");
  // Text rotates about its start point, so step back half its length along the diagonal to centre it on the page.
  page.drawText(SANDBOX_BANNER, {
    x: PAGE_WIDTH / 2 - half * Math.cos(angle) + (markSize / 2) * Math.sin(angle),
    y: PAGE_HEIGHT / 2 - half * Math.sin(angle) - (markSize / 2) * Math.cos(angle),
    font,
    size: markSize,
    color: WARNING,
    opacity: 0.12,
    rotate: degrees(45),
  });
}
