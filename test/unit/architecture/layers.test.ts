import path from "node:path";
import { cruise, type IForbiddenRuleType, type IReporterOutput } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

/*
 * The layers of docs/architecture.md, checked on the imports by dependency-cruiser: each folder
 * imports only the folders below it, type imports included, and no module reaches itself again
 * through value imports. Two tools stand beside the service, and only the server (which runs
 * them for `npm start`) imports them: the OCTO supplier imports core alone, the seed what it
 * writes through (core, drizzle, identity, the subgraphs).
 */
const root = path.resolve(import.meta.dirname, "../../..");

/** Bottom first: a folder may import those before it. */
export const LAYERS = ["core", "drizzle", "identity", "subgraphs", "schema", "gateway", "rest-compat", "server"] as const;

/** Beside the layers: imported by the server alone. */
const TOOLS = ["octo-supplier", "seed"] as const;

const folder = (names: readonly string[]) => `^(${names.join("|")})/`;

function layerRules(): IForbiddenRuleType[] {
  const rules: IForbiddenRuleType[] = LAYERS.slice(0, -1).map((layer, index) => ({
    name: `${layer}-imports-only-below`,
    severity: "error",
    from: { path: `^${layer}/` },
    to: { path: folder([...LAYERS.slice(index + 1), ...TOOLS]) },
  }));
  rules.push(
    { name: "octo-supplier-imports-core-alone", severity: "error", from: { path: "^octo-supplier/" }, to: { path: folder([...LAYERS.slice(1), "seed"]) } },
    { name: "seed-imports-what-it-writes-through", severity: "error", from: { path: "^seed/" }, to: { path: folder(["schema", "gateway", "rest-compat", "server", "octo-supplier"]) } },
    { name: "no-value-cycles", severity: "error", from: { path: folder([...LAYERS, ...TOOLS]) }, to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } } },
  );
  return rules;
}

describe("the layers", () => {
  it("import only downward, type imports included, and no module imports itself again through values", async () => {
    const result = await cruise(
      [...LAYERS, ...TOOLS],
      {
        baseDir: root,
        ruleSet: { forbidden: layerRules() },
        validate: true,
        tsPreCompilationDeps: true,
        doNotFollow: { path: "node_modules" },
        exclude: { path: "(^|/)node_modules/" },
      },
      undefined,
      { tsConfig: extractTSConfig(path.join(root, "tsconfig.json")) },
    );
    const { summary } = (result.output as IReporterOutput["output"] & { summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] } }) as never as {
      summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] };
    };
    const found = summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}${violation.cycle ? ` (${violation.cycle.map((step) => step.name).join(" → ")})` : ""}`);
    expect(found).toEqual([]);
  }, 60_000);
});
