import { inflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { signVoucherLink, verifyVoucherLink, voucherPath } from "../../../subgraphs/booking/voucher/voucher-link.js";
import { renderVoucherPdf, SANDBOX_BANNER, type VoucherContent } from "../../../subgraphs/booking/voucher/voucher-pdf.js";

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

/** pdf-lib always deflates page content, so inflate every stream to see the text operators. */
function pageOperators(pdf: Uint8Array): string {
  const raw = latin1(pdf);
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  let out = "";
  for (let m = streams.exec(raw); m !== null; m = streams.exec(raw)) {
    try {
      out += inflateSync(Buffer.from(m[1], "latin1")).toString("latin1");
    } catch {
      out += m[1];
    }
  }
  return out;
}

/** Standard-font text is written as a hex string of WinAnsi bytes. */
const shown = (text: string): string => `<${Buffer.from(text, "latin1").toString("hex").toUpperCase()}> Tj`;

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

  it("writes the booking details into the page content", async () => {
    const ops = pageOperators(await renderVoucherPdf(content()));
    expect(ops).toContain(shown("BK-7QX4M2"));
    expect(ops).toContain(shown("2 x Adult"));
    expect(ops).toContain(shown("Language: English"));
    expect(ops).toContain(shown("RES-0042"));
    expect(ops).toContain(shown("Jane Doe"));
    expect(ops).toContain(shown("Tue 1 Dec 2026, 09:00 (Europe/Paris)"));
    expect(ops).toMatch(/<4555522031323[0-9A-F]*> Tj/); // "EUR 123..."
    expect(ops).toContain(shown("Booking ID: 7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91"));
    expect(ops).not.toContain(shown(SANDBOX_BANNER));
  });

  it("renders titles outside WinAnsi, keeping what the font can show", async () => {
    const pdf = await renderVoucherPdf(content({ productTitle: "Visite à Paris – 東京 tour", supplierName: "Łódź Tours ✓" }));
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    const ops = pageOperators(pdf);
    // "à" and the en dash are WinAnsi (0xE0, 0x96); the CJK characters are not.
    expect(ops).toContain("<56697369746520E02050617269732096203F3F20746F7572> Tj");
    // "ó" is WinAnsi, "ź" decomposes to "z" + accent, "Ł" and "✓" have no usable decomposition.
    expect(ops).toContain(shown("Supplied by ?ódz Tours ?"));
  });

  it("wraps long lines and stays on one page however much content there is", async () => {
    const long = "Full-day small-group excursion ".repeat(20);
    const pdf = await renderVoucherPdf(
      content({
        productTitle: long,
        options: Array.from({ length: 80 }, (_, i) => ({ label: `Option ${i}`, value: "x".repeat(200) })),
      }),
    );
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    const ops = pageOperators(pdf);
    expect(ops).not.toContain(shown(long.trim()));
    // The ellipsis is 0x85 in WinAnsi.
    expect(ops).toContain("<8520287472756E636174656429> Tj");
    expect(ops).toContain(shown("Booking ID: 7f3c2a9e-1b4d-4c8e-9a2f-0d6e5b7c8a91"));
  });

  it("is deterministic for identical content", async () => {
    const [a, b] = await Promise.all([renderVoucherPdf(content()), renderVoucherPdf(content())]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("marks sandbox vouchers as not valid for entry", async () => {
    const sandbox = await renderVoucherPdf(content({ environment: "sandbox" }));
    const production = await renderVoucherPdf(content());
    expect(Buffer.from(sandbox).equals(Buffer.from(production))).toBe(false);
    expect(pageOperators(sandbox)).toContain(shown(SANDBOX_BANNER));
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
