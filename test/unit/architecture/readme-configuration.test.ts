import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configVariables } from "../../../core/config.js";
import { otelVariables } from "../../../core/tracing-settings.js";

/** The README's configuration table: the rows, each cell of the first column split into its `VARIABLE`s. */
function documentedVariables(): Set<string> {
  const readme = readFileSync("README.md", "utf8");
  const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("### Scale-out"));
  const names = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
  return new Set(names);
}

/** An operator learns the settings from the README: every variable the service reads has a row there. */
describe("the README's configuration table", () => {
  it("names every variable the configuration reads", () => {
    const documented = documentedVariables();
    expect([...configVariables, ...otelVariables].filter((name) => !documented.has(name))).toEqual([]);
  });

  it("names no variable the configuration does not read", () => {
    const read = new Set<string>([...configVariables, ...otelVariables]);
    expect([...documentedVariables()].filter((name) => !read.has(name))).toEqual([]);
  });
});
