import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Every file of the subgraphs is named `<domain>.<role>.ts` (`booking.service.ts`,
 * `price.rules.ts`, `create-booking.step.ts`): the role says what kind of code it holds, so a
 * newcomer finds a step's service, its rules or its repository from the folder listing alone.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("file names", () => {
  it("are <domain>.<role>.ts across the subgraphs", () => {
    const unnamed = files(path.join(root, "subgraphs")).filter((file) => !NAME.test(path.basename(file)));
    expect(unnamed.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("tell a name of that shape from one that is not", () => {
    expect(["booking.service.ts", "create-booking.step.ts", "booking-setup.schema.ts"].every((name) => NAME.test(name))).toBe(true);
    expect(["loaders.ts", "price-rules.ts", "a.b.c.ts", "Booking.service.ts"].some((name) => NAME.test(name))).toBe(false);
  });
});
