import { degrees, PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts, type RGB } from "pdf-lib";

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

interface Line {
  text: string;
  font: PDFFont;
  size: number;
  color: RGB;
  spaceBefore: number;
}

/**
 * The standard fonts only encode WinAnsi, and pdf-lib throws on anything else; a supplier's title in any script must
 * still produce a voucher, so keep what the font can show, fall back to the base letters, and mark the rest with '?'.
 */
export function toWinAnsi(text: string, encodable: ReadonlySet<number>): string {
  let out = "";
  // NFC first so a decomposed "e" + U+0301 is kept as the encodable "é" instead of losing its accent.
  for (const char of text.normalize("NFC").replace(/\s+/gu, " ")) {
    if (encodable.has(char.codePointAt(0) ?? -1)) {
      out += char;
      continue;
    }
    const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
    const usable = [...base].every((c) => encodable.has(c.codePointAt(0) ?? -1));
    // A lone combining mark decomposes to nothing: it is a stripped diacritic, not a missing character.
    out += usable ? base : "?";
  }
  return out.trim();
}

/** Greedy word wrap; a word wider than the line (a URL, a long code) is broken between characters. */
function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const fits = (s: string): boolean => font.widthOfTextAtSize(s, size) <= maxWidth;
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ").filter((w) => w.length > 0)) {
    const candidate = current === "" ? word : `${current} ${word}`;
    if (fits(candidate)) {
      current = candidate;
      continue;
    }
    if (current !== "") lines.push(current);
    current = "";
    for (const char of word) {
      if (current !== "" && !fits(current + char)) {
        lines.push(current);
        current = "";
      }
      current += char;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
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

/** ISO codes rather than symbols: unambiguous ("$") and always encodable ("₹" is not WinAnsi). */
export function formatTotal(total: { retail: number; currency: string }): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: total.currency, currencyDisplay: "code" }).format(total.retail);
  } catch {
    // An unknown currency code must not prevent the voucher; show the amount as given.
    return `${total.currency} ${total.retail}`;
  }
}

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== "";

/** A one-page A4 PDF voucher. Text outside WinAnsi (the standard Helvetica font's encoding) is transliterated where possible (strip diacritics via NFKD) and otherwise replaced with '?', so any product title renders. Long lines wrap. Sets PDF metadata title "Voucher <bookingCode>" and creation date issuedAt (so output is deterministic for the same content). */
export async function renderVoucherPdf(content: VoucherContent): Promise<Uint8Array> {
  // Without updateMetadata: false pdf-lib stamps the current time, and identical content would give different bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`Voucher ${content.bookingCode}`);
  doc.setCreator("activities-service");
  doc.setProducer("pdf-lib");
  doc.setCreationDate(content.issuedAt);
  doc.setModificationDate(content.issuedAt);

  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const boldSet = new Set(bold.getCharacterSet());
  const encodable: ReadonlySet<number> = new Set(regular.getCharacterSet().filter((cp) => boldSet.has(cp)));
  const safe = (s: string): string => toWinAnsi(s, encodable);

  const page = doc.addPage(PageSizes.A4);
  const sandbox = content.environment === "sandbox";
  if (sandbox) drawSandboxMarks(page, bold);

  const lines: Line[] = [];
  const add = (text: string, font: PDFFont, size: number, color: RGB, spaceBefore = 0): void => {
    wrap(safe(text), font, size, TEXT_WIDTH).forEach((t, i) => lines.push({ text: t, font, size, color, spaceBefore: i === 0 ? spaceBefore : 0 }));
  };
  const field = (label: string, values: string[]): void => {
    const shown = values.filter(present);
    if (shown.length === 0) return;
    add(label.toUpperCase(), bold, 9, MUTED, 14);
    for (const value of shown) add(value, regular, 12, INK, 2);
  };

  add("Voucher", bold, 24, INK);
  add(content.bookingCode, bold, 30, INK, 10);
  add(content.productTitle, bold, 16, INK, 18);
  if (present(content.supplierName)) add(`Supplied by ${content.supplierName}`, regular, 11, MUTED, 4);
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
  field("Total", [formatTotal(content.total)]);

  const top = PAGE_HEIGHT - MARGIN - (sandbox ? BANNER_HEIGHT + 12 : 0);
  drawBody(page, fitToPage(lines, top - (MARGIN + FOOTER_HEIGHT), regular), top);

  const footer = [`Booking ID: ${content.bookingId}`, `Issued: ${content.issuedAt.toISOString()}`];
  footer.forEach((text, i) => {
    // Footer lines are cut rather than wrapped: their space is reserved and must not grow into the body.
    const [first = ""] = wrap(safe(text), regular, 8, TEXT_WIDTH);
    page.drawText(first, { x: MARGIN, y: MARGIN + (footer.length - 1 - i) * 11, font: regular, size: 8, color: MUTED });
  });

  return doc.save({ useObjectStreams: false });
}

const lineHeight = (line: Line): number => line.spaceBefore + line.size * LINE_SPACING;

/** The voucher must stay one page, so overly long content is cut and the cut is made visible. */
function fitToPage(lines: Line[], available: number, font: PDFFont): Line[] {
  const total = lines.reduce((sum, l) => sum + lineHeight(l), 0);
  if (total <= available) return lines;
  const marker: Line = { text: "\u2026 (truncated)", font, size: 10, color: MUTED, spaceBefore: 4 };
  const kept: Line[] = [];
  let used = lineHeight(marker);
  for (const line of lines) {
    if (used + lineHeight(line) > available) break;
    kept.push(line);
    used += lineHeight(line);
  }
  return [...kept, marker];
}

function drawBody(page: PDFPage, lines: Line[], top: number): void {
  let y = top;
  for (const line of lines) {
    y -= line.spaceBefore + line.size;
    page.drawText(line.text, { x: MARGIN, y, font: line.font, size: line.size, color: line.color });
    y -= line.size * (LINE_SPACING - 1);
  }
}

/** A banner alone can be trimmed off a printout; the faint diagonal repeat keeps a cut-down test voucher recognisable. */
function drawSandboxMarks(page: PDFPage, bold: PDFFont): void {
  const bannerY = PAGE_HEIGHT - MARGIN - BANNER_HEIGHT;
  page.drawRectangle({ x: MARGIN, y: bannerY, width: TEXT_WIDTH, height: BANNER_HEIGHT, color: WARNING });
  const size = 14;
  const width = bold.widthOfTextAtSize(SANDBOX_BANNER, size);
  page.drawText(SANDBOX_BANNER, { x: MARGIN + (TEXT_WIDTH - width) / 2, y: bannerY + (BANNER_HEIGHT - size) / 2 + 3, font: bold, size, color: WHITE });

  const markSize = 40;
  const half = bold.widthOfTextAtSize(SANDBOX_BANNER, markSize) / 2;
  const angle = Math.PI / 4;
  // Text rotates about its start point, so step back half its length along the diagonal to centre it on the page.
  page.drawText(SANDBOX_BANNER, {
    x: PAGE_WIDTH / 2 - half * Math.cos(angle) + (markSize / 2) * Math.sin(angle),
    y: PAGE_HEIGHT / 2 - half * Math.sin(angle) - (markSize / 2) * Math.cos(angle),
    font: bold,
    size: markSize,
    color: WARNING,
    opacity: 0.12,
    rotate: degrees(45),
  });
}
