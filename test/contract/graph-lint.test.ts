import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run lint` holds the moved parts of the graph to docs/graph-design.md with graphql-eslint's
 * schema rules. The committed schema passes; a copy broken the ways the rules exist to catch, in a
 * moved type, fails on each, while the same break in a part not moved yet is left alone.
 */
const root = path.resolve(import.meta.dirname, "../..");
// Inside the repository, so that the copied config resolves the plugin from node_modules.
const scratch = path.join(root, "test", `.graph-lint-${process.pid}`);

async function lint(schema: string): Promise<{ rule: string | null; line: number; message: string }[]> {
  await mkdir(path.join(scratch, "schema"), { recursive: true });
  await copyFile(path.join(root, "eslint.config.js"), path.join(scratch, "eslint.config.js"));
  await copyFile(path.join(root, "schema/graph-design-parts.json"), path.join(scratch, "schema/graph-design-parts.json"));
  await writeFile(path.join(scratch, "schema/api.graphql"), schema);
  const eslint = new ESLint({ cwd: scratch, overrideConfigFile: path.join(scratch, "eslint.config.js") });
  const [result] = await eslint.lintFiles(["schema/api.graphql"]);
  return result.messages.map((message) => ({ rule: message.ruleId, line: message.line, message: message.message }));
}

const committed = () => readFile(path.join(root, "schema/api.graphql"), "utf8");

/**
 * The schema with the first `search` after `anchor` replaced; fails when the text is not there, so
 * a break cannot silently stop applying.
 */
function broken(schema: string, search: string, replacement: string, anchor = ""): string {
  const from = schema.indexOf(anchor);
  const at = from < 0 ? -1 : schema.indexOf(search, from);
  expect(at, `${anchor} … ${search}`).toBeGreaterThanOrEqual(0);
  return schema.slice(0, at) + replacement + schema.slice(at + search.length);
}

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the graph's lint", () => {
  it("passes the committed schema", async () => {
    expect(await lint(await committed())).toEqual([]);
  });

  it("refuses, in a moved part, each thing its rules exist for", async () => {
    const schema = await committed();
    const cases: [rule: string, search: string, replacement: string, anchor?: string][] = [
      ["@graphql-eslint/require-description", '"""When it was registered"""\n  createdAt', "createdAt", "type WebhookEndpoint implements Node {"],
      ["@graphql-eslint/naming-convention", "  orderingKey: String!", "  ordering_key: String!"],
      ["@graphql-eslint/no-typename-prefix", "  orderingKey: String!", "  webhookMessageKey: String!"],
      ["@graphql-eslint/relay-connection-types", "  pageInfo: PageInfo!", "  pageInfo: PageInfo", "type WebhookMessageConnection {"],
      ["@graphql-eslint/relay-edge-types", '  """This item\'s position, for `after` or `before`"""\n  cursor: String!\n', "", "type WebhookMessageEdge {"],
      ["@graphql-eslint/relay-page-info", "  hasPreviousPage: Boolean!", "  hasEarlierPage: Boolean!", "type PageInfo {"],
      ["@graphql-eslint/relay-arguments", '    """A cursor: the messages newer than it"""\n    before: String\n', "", "  messages("],
      ["@graphql-eslint/strict-id-in-types", "  id: ID!", "  id: String!", "type WebhookEndpoint implements Node {"],
      ["@graphql-eslint/input-name", "    input: CreateWebhookEndpointInput!", '    endpoint: CreateWebhookEndpointInput!', "  createWebhookEndpoint("],
    ];
    for (const [rule, search, replacement, anchor] of cases) {
      const rules = (await lint(broken(schema, search, replacement, anchor))).map((message) => message.rule);
      expect(rules, rule).toContain(rule);
    }
  });

  it("leaves a part not moved yet alone", async () => {
    const schema = await committed();
    // The same missing description, on a type still in its earlier shape.
    const messages = await lint(broken(schema, "type Query {", '"""Undescribed"""\ntype Unmoved {\n  bad_name: String\n}\n\ntype Query {'));
    expect(messages).toEqual([]);
  });
});
