import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { version: string; engines?: { node?: string } | string[]; optional?: boolean }> };

/**
 * `engines.node` is a promise to operators: every Node it admits runs every installed package.
 * npm only warns (EBADENGINE) when a dependency wants a newer Node, so a lock file that breaks the
 * promise still installs; this fails instead.
 */
describe("the Node versions package.json admits", () => {
  const oldest = semver.minVersion(manifest.engines.node)!;

  it("include the Node running the suite", () => {
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });

  it("run every package of the lock file, from the oldest admitted on", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path && typeof entry.engines === "object" && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(oldest, (entry.engines as { node: string }).node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, "")}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing, `oldest admitted: ${oldest}`).toEqual([]);
  });
});
