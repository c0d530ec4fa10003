import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The code lint (eslint.config.js) on a file of ours: a rule is switched off only with a reason. */
const root = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: root });
const asOurs = path.join(root, "core", "lint-probe.ts");

async function problems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: asOurs });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("npm run lint on TypeScript", () => {
  it("refuses an eslint-disable without a reason, and takes one with its reason after --", async () => {
    const code = (directive: string) => `${directive}\nexport const value: any = 1;\n`;
    expect(await problems(code("// eslint-disable-next-line @typescript-eslint/no-explicit-any"))).toEqual(["@eslint-community/eslint-comments/require-description"]);
    expect(await problems(code("// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a library's own bound"))).toEqual([]);
  });

  it("holds typescript-eslint's rules: an explicit any and an unused import are refused, a left-out _name is not", async () => {
    expect(await problems("export const value: any = 1;\n")).toEqual(["@typescript-eslint/no-explicit-any"]);
    expect(await problems('import { readFile } from "node:fs";\nexport const value = 1;\n')).toEqual(["@typescript-eslint/no-unused-vars"]);
    expect(await problems("export function shown(row: { secret: string; name: string }) {\n  const { secret: _secret, ...rest } = row;\n  return rest;\n}\n")).toEqual([]);
  });
});
