import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { signVoucherLink, verifyVoucherLink, voucherPath } from "../../../subgraphs/booking/voucher/voucher.link.js";
import { renderVoucherPdf, SANDBOX_BANNER, type VoucherContent } from "../../../subgraphs/booking/voucher/voucher.pdf.js";
import { pdfLines, pdfRightmostEdge } from "../../support/pdf-text.js";

const content = (overrides: Partial<VoucherContent> = {}): VoucherContent => ({
  bookingId: "7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91",
  bookingCode: "BK-7QX4M2",
  productTitle: "Louvre Museum skip-the-line guided tour",
  supplierName: "Paris Walks SARL",
  startsAt: "2026-12-01T09:00:00+01:00[Europe/Paris]",
  participants: [
    { label: "Adult", quantity: 2 },
    { label: "Child", quantity: 1 },
  ],
  options: [{ label: "Language", value: "English" }],
  resellerRef: "RES-0042",
  leadTraveller: "Jane Doe",
  total: { retail: 123.5, currency: "EUR" },
  issuedAt: new Date("2026-11-20T10:15:00Z"),
  environment: "production",
  ...overrides,
});

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");

/** The line printed under a field's label. */
/** A4 width less the 56 pt right margin. */
const RIGHT_MARGIN_AT = 595.28 - 56;

const valueOf = (lines: string[], label: string): string | undefined => lines[lines.indexOf(label.toUpperCase()) + 1];

describe("renderVoucherPdf", () => {
  it("produces a one-page PDF titled after the booking code", async () => {
    const pdf = await renderVoucherPdf(content());
    expect(latin1(pdf.subarray(0, 5))).toBe("%PDF-");
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe("Voucher BK-7QX4M2");
    expect(doc.getCreationDate()?.toISOString()).toBe("2026-11-20T10:15:00.000Z");
    const [page] = doc.getPages();
    expect(page.getWidth()).toBeCloseTo(595.28);
    expect(page.getHeight()).toBeCloseTo(841.89);
  });

  it("prints the booking details, read back as text", async () => {
    const lines = await pdfLines(await renderVoucherPdf(content()));
    expect(lines).toEqual([
      "Voucher",
      "BK-7QX4M2",
      "Louvre Museum skip-the-line guided tour",
      "Supplied by Paris Walks SARL",
      "DATE AND TIME",
      "Tue 1 Dec 2026, 09:00 (Europe/Paris)",
      "PARTICIPANTS",
      "2 x Adult",
      "1 x Child",
      "OPTIONS",
      "Language: English",
      "RESELLER REFERENCE",
      "RES-0042",
      "LEAD TRAVELLER",
      "Jane Doe",
      "TOTAL",
      "EUR 123.50",
      "Booking ID: 7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91",
      "Issued: 2026-11-20T10:15:00.000Z",
    ]);
  });

  it("prints no lead traveller line without a name", async () => {
    const lines = await pdfLines(await renderVoucherPdf(content({ leadTraveller: undefined })));
    expect(lines).not.toContain("LEAD TRAVELLER");
    expect(valueOf(lines, "Reseller reference")).toBe("RES-0042");
  });

  it("prints Greek and Japanese lead traveller names exactly", async () => {
    for (const name of ["Αλέξανδρος Παπαδόπουλος", "山田太郎"]) {
      const lines = await pdfLines(await renderVoucherPdf(content({ leadTraveller: name })));
      expect(valueOf(lines, "Lead traveller")).toBe(name);
    }
  });

  it("mixes scripts on one line, the Japanese face filling in where Noto Sans has no glyph", async () => {
    const pdf = await renderVoucherPdf(content({ productTitle: "Visite à Paris – 東京 tour", supplierName: "Łódź Экскурсии ✓", leadTraveller: "Ἀλέξανδρος 山田" }));
    const lines = await pdfLines(pdf);
    expect(lines[2]).toBe("Visite à Paris – 東京 tour");
    // "✓" is only in the Japanese face.
    expect(lines[3]).toBe("Supplied by Łódź Экскурсии ✓");
    expect(valueOf(lines, "Lead traveller")).toBe("Ἀλέξανδρος 山田");
    expect(latin1(pdf)).toContain("NotoSansJP");
  });

  it("embeds only the faces the text needs, subset to the glyphs used", async () => {
    const latin = await renderVoucherPdf(content());
    expect(latin1(latin)).not.toContain("NotoSansJP");
    const japanese = await renderVoucherPdf(content({ leadTraveller: "山田太郎" }));
    // The Japanese font files are 5 MB each; a subset of a few glyphs keeps the voucher small.
    expect(latin.length).toBeLessThan(30_000);
    expect(japanese.length).toBeLessThan(40_000);
  });

  it("keeps base letters of characters no face has, and marks the rest with '?'", async () => {
    // Georgian and Hebrew are in neither face; the mathematical bold A decomposes (NFKD) to a plain A. Devanagari is in
    // Noto Sans but needs shaping pdf-lib lacks: its letters become '?' and its vowel signs, being marks, are dropped.
    const lines = await pdfLines(
      await renderVoucherPdf(content({ supplierName: "თბილისი שלום \u{1D400}BC", productTitle: "Cafe\u0301 tour नमस्ते", leadTraveller: "Nguyễn Thị Ánh" })),
    );
    expect(lines[2]).toBe("Café tour ????");
    expect(lines[3]).toBe("Supplied by ??????? ???? ABC");
    expect(valueOf(lines, "Lead traveller")).toBe("Nguyễn Thị Ánh");
  });

  it("wraps long lines and stays on one page however much content there is", async () => {
    const long = "Full-day small-group excursion ".repeat(20).trim();
    const pdf = await renderVoucherPdf(
      content({
        productTitle: long,
        options: Array.from({ length: 80 }, (_, i) => ({ label: `Option ${i}`, value: "x".repeat(200) })),
      }),
    );
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    const lines = await pdfLines(pdf);
    const title = lines.slice(2, lines.indexOf("Supplied by Paris Walks SARL"));
    expect(title.length).toBeGreaterThan(1);
    expect(title.join(" ")).toBe(long);
    expect(lines).toContain("\u2026 (truncated)");
    expect(lines).not.toContain("TOTAL");
    expect(lines.at(-2)).toBe("Booking ID: 7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91");
    expect(await pdfRightmostEdge(pdf)).toBeLessThanOrEqual(RIGHT_MARGIN_AT);
  });

  it("breaks Japanese text, which has no spaces, between characters, measuring both faces", async () => {
    const long = "東京タワーと浅草寺をめぐる一日ツアー（日本語ガイド付き）".repeat(4);
    const pdf = await renderVoucherPdf(content({ productTitle: long, leadTraveller: `${"Αλέξανδρος Παπαδόπουλος 山田太郎 ".repeat(4)}` }));
    const lines = await pdfLines(pdf);
    const title = lines.slice(2, lines.indexOf("Supplied by Paris Walks SARL"));
    expect(title.length).toBeGreaterThan(1);
    expect(title.join("")).toBe(long);
    const traveller = lines.slice(lines.indexOf("LEAD TRAVELLER") + 1, lines.indexOf("TOTAL"));
    expect(traveller.length).toBeGreaterThan(1);
    expect(traveller.join(" ")).toBe("Αλέξανδρος Παπαδόπουλος 山田太郎 ".repeat(4).trim());
    // The lines were measured as the sum of runs in both faces; the extractor measures the glyphs actually drawn.
    expect(await pdfRightmostEdge(pdf)).toBeLessThanOrEqual(RIGHT_MARGIN_AT);
    expect(await pdfRightmostEdge(pdf)).toBeGreaterThan(RIGHT_MARGIN_AT - 40);
  });

  it("is deterministic for identical content", async () => {
    for (const c of [content(), content({ leadTraveller: "Αλέξανδρος Παπαδόπουλος 山田太郎", environment: "sandbox" })]) {
      const [a, b] = await Promise.all([renderVoucherPdf(c), renderVoucherPdf(c)]);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });

  it("marks sandbox vouchers as not valid for entry", async () => {
    const sandbox = await renderVoucherPdf(content({ environment: "sandbox" }));
    const production = await renderVoucherPdf(content());
    expect(Buffer.from(sandbox).equals(Buffer.from(production))).toBe(false);
    const lines = await pdfLines(sandbox);
    expect(lines[0]).toBe(SANDBOX_BANNER);
    // The faint diagonal repeat, besides the banner.
    expect(lines.filter((l) => l === SANDBOX_BANNER)).toHaveLength(2);
    expect(await pdfLines(production)).not.toContain(SANDBOX_BANNER);
    expect((await PDFDocument.load(sandbox)).getPageCount()).toBe(1);
  });
});

describe("voucher links", () => {
  const secret = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
  const bookingId = "7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91";
  const expiresAt = new Date("2026-12-02T00:00:00Z");
  const before = new Date("2026-12-01T12:00:00Z");
  const after = new Date("2026-12-02T00:00:01Z");

  const issue = (id = bookingId): { url: URL; expires: string; signature: string } => {
    const url = new URL(signVoucherLink(secret, "https://api.example.com/", id, expiresAt));
    return { url, expires: url.searchParams.get("expires") ?? "", signature: url.searchParams.get("signature") ?? "" };
  };

  it("signs a link under the public URL without a doubled slash", () => {
    const link = signVoucherLink(secret, "https://api.example.com/", bookingId, expiresAt);
    expect(link).toMatch(new RegExp(`^https://api\\.example\\.com${voucherPath(bookingId).replace(/\./g, "\\.")}\\?expires=1796169600&signature=[A-Za-z0-9_-]{43}$`));
    expect(signVoucherLink(secret, "https://api.example.com", bookingId, expiresAt)).toBe(link);
  });

  it("round-trips a valid link", () => {
    const { url, expires, signature } = issue();
    expect(url.pathname).toBe(voucherPath(bookingId));
    expect(verifyVoucherLink(secret, bookingId, expires, signature, before)).toBe("valid");
  });

  it("reports an authentic link past its expiry as expired", () => {
    const { expires, signature } = issue();
    expect(verifyVoucherLink(secret, bookingId, expires, signature, after)).toBe("expired");
    expect(verifyVoucherLink(secret, bookingId, expires, signature, expiresAt)).toBe("expired");
  });

  it("rejects a tampered signature", () => {
    const { expires, signature } = issue();
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(verifyVoucherLink(secret, bookingId, expires, flipped, before)).toBe("invalid");
    expect(verifyVoucherLink(secret, bookingId, expires, signature.slice(0, -1), before)).toBe("invalid");
    expect(verifyVoucherLink(new TextEncoder().encode("another secret"), bookingId, expires, signature, before)).toBe("invalid");
  });

  it("rejects an extended expiry, even once the original has passed", () => {
    const { expires, signature } = issue();
    const later = String(Number(expires) + 86_400);
    expect(verifyVoucherLink(secret, bookingId, later, signature, before)).toBe("invalid");
    expect(verifyVoucherLink(secret, bookingId, later, signature, after)).toBe("invalid");
  });

  it("rejects a signature issued for another booking", () => {
    const { expires, signature } = issue("0a1b2c3d-0000-4000-8000-000000000000");
    expect(verifyVoucherLink(secret, bookingId, expires, signature, before)).toBe("invalid");
  });

  it("rejects missing parameters", () => {
    const { expires, signature } = issue();
    expect(verifyVoucherLink(secret, bookingId, undefined, signature, before)).toBe("invalid");
    expect(verifyVoucherLink(secret, bookingId, expires, undefined, before)).toBe("invalid");
    expect(verifyVoucherLink(secret, bookingId, undefined, undefined, before)).toBe("invalid");
    expect(verifyVoucherLink(secret, bookingId, "", "", before)).toBe("invalid");
  });

  it("rejects garbage", () => {
    const { expires, signature } = issue();
    for (const bad of ["soon", "1e12", ` ${expires}`, `+${expires}`, `${expires}.0`, "-1", "9".repeat(40)]) {
      expect(verifyVoucherLink(secret, bookingId, bad, signature, before)).toBe("invalid");
    }
    for (const bad of ["not-a-signature", "💥".repeat(11), "=".repeat(43), `${signature}=`]) {
      expect(verifyVoucherLink(secret, bookingId, expires, bad, before)).toBe("invalid");
    }
  });

  it("refuses to sign with an empty secret", () => {
    expect(() => signVoucherLink(new Uint8Array(0), "https://api.example.com", bookingId, expiresAt)).toThrow();
    expect(() => signVoucherLink(secret, "https://api.example.com", bookingId, new Date(Number.NaN))).toThrow(RangeError);
  });
});
