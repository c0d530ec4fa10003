import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { npmStartArguments } from "../../../bench/cores/cores-core.js";

/**
 * The benchmarks that host the service in their own process measure it as `npm start` runs it:
 * the same node flags (V8's young generation size among them), so that a number in
 * bench/results/ is the production service's, not a differently tuned one.
 */
describe("benchmarks hosting the service run with npm start's node flags", () => {
  const scripts: Record<string, string> = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")).scripts;
  const startFlags = npmStartArguments().slice(0, -1);

  it.each([
    ["bench", "bench/search-and-export.bench.ts"],
    ["bench:booking", "bench/booking-flow.bench.ts"],
    ["bench:paths", "bench/paths.bench.ts"],
    ["bench:cost", "bench/cost-calibration.bench.ts"],
  ])("%s", (name, entry) => {
    expect(startFlags).toContain("--max-semi-space-size=32");
    const [node, ...args] = scripts[name].trim().split(/\s+/);
    expect(node).toBe("node");
    expect(args).toEqual([...startFlags, entry]);
  });

  it("every bench file that starts the service in its own process is one of them", () => {
    const hosting = Object.entries(scripts)
      .filter(([name]) => name.startsWith("bench"))
      .map(([, script]) => script.trim().split(/\s+/).at(-1)!)
      .filter((entry) => /\bcreateService\(/.test(readFileSync(new URL(`../../../${entry}`, import.meta.url), "utf8")));
    expect(hosting.sort()).toEqual(["bench/booking-flow.bench.ts", "bench/cost-calibration.bench.ts", "bench/paths.bench.ts", "bench/search-and-export.bench.ts"]);
  });
});
