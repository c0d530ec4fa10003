import { describe, expect, it } from "vitest";
import { isEmailAddress, isPhoneNumber, isWebUrl } from "../../core/contact-details.js";
import { EmailAddressScalar, PhoneNumberScalar, UrlScalar } from "../../subgraphs/common/common.scalars.js";

describe("contact details' shapes", () => {
  it("take links a consumer can follow, as written, and nothing a page would run", () => {
    for (const url of ["https://museum.example", "HTTP://Museum.example/a?b=c#d", "https://[2001:db8::1]:8443/x", "https://museum.example/a%20b"]) expect(isWebUrl(url), url).toBe(true);
    for (const url of ["museum.example", "//museum.example", "http:museum.example", "https://", "ftp://museum.example", "javascript:alert(1)", "data:text/html,x", " https://museum.example", "https://museum.example/a b", "https://museum.example/\u0007"]) {
      expect(isWebUrl(url), url).toBe(false);
    }
  });

  it("take telephone numbers in the groupings people write, with 5 to 15 digits and an extension", () => {
    for (const phone of ["+41 44 123 45 67", "(555) 123-4567", "044/123.45.67", "+1-202-555-0100 ext. 12", "+41 44 123 45 67 x9", "12345", "+123456789012345"]) expect(isPhoneNumber(phone), phone).toBe(true);
    for (const phone of ["1234", "+1234567890123456", "call me", "+41+44 123", "--12345", "+41 44 123 45 67#", "", "12345 ext. 1234567"]) expect(isPhoneNumber(phone), phone).toBe(false);
  });

  it("take an e-mail address with a local part, one @ and a domain with a dot", () => {
    for (const email of ["a@b.ch", "Info+x@museum.example"]) expect(isEmailAddress(email), email).toBe(true);
    for (const email of ["a@b", "@b.ch", "a b@c.ch", "a@@b.ch", ""]) expect(isEmailAddress(email), email).toBe(false);
  });

  it("are the graph scalars' own: each takes and refuses what its predicate does, and answers a value unchanged", () => {
    expect(UrlScalar.parseValue("HTTPS://A.example")).toBe("HTTPS://A.example");
    expect(() => UrlScalar.parseValue("javascript:alert(1)")).toThrow(/URL must be/);
    expect(PhoneNumberScalar.parseValue("(555) 123-4567")).toBe("(555) 123-4567");
    expect(() => PhoneNumberScalar.parseValue("n/a")).toThrow(/PhoneNumber must be/);
    expect(EmailAddressScalar.parseValue("a@b.ch")).toBe("a@b.ch");
    expect(() => EmailAddressScalar.parseValue("a@b")).toThrow(/EmailAddress must be/);
    // A value stored before a rule tightened is still answered, as it was kept.
    expect(UrlScalar.serialize("museum.example")).toBe("museum.example");
  });
});
