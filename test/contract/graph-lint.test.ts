import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

/**
 * `npm run lint` holds the whole graph to docs/graph-design.md with graphql-eslint's schema rules.
 * The committed schema passes; a copy broken the ways the rules exist to catch fails on each,
 * wherever the break is, a type added later included.
 */
const root = path.resolve(import.meta.dirname, "../..");
// Inside the repository, so that the copied config resolves the plugin from node_modules.
const scratch = path.join(root, "test", `.graph-lint-${process.pid}`);

async function lint(schema: string): Promise<{ rule: string | null; line: number; message: string }[]> {
  await mkdir(path.join(scratch, "schema"), { recursive: true });
  await copyFile(path.join(root, "eslint.config.js"), path.join(scratch, "eslint.config.js"));
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

  it("refuses each thing its rules exist for", async () => {
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

  it("holds a type added anywhere to the same rules, and a root field to its description", async () => {
    const schema = await committed();
    const added = await lint(broken(schema, "type Query {", '"""Described"""\ntype Added {\n  """Described"""\n  bad_name: String\n}\n\ntype Query {'));
    // An entity without its id, with a field misnamed.
    expect(added.map((message) => message.rule).sort()).toEqual(["@graphql-eslint/naming-convention", "@graphql-eslint/strict-id-in-types"]);
    const description = '  """\n  One product of the catalogue (deprecated ones included); null for an id that names none, or a deleted one\n  """\n  product(';
    const undescribed = await lint(broken(schema, description, "  product(", "type Query {"));
    expect(undescribed.map((message) => message.rule)).toEqual(["@graphql-eslint/require-description"]);
  });
});
