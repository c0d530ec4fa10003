import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { EDGE_REFUSALS, edgeError, edgeRefusalBody, graphqlBodyOf, type EdgeRefusal, type EdgeRefusalName } from "../../../core/edge-refusals.js";
import { HTTP_STATUS_OF_CODE } from "../../../core/errors.js";
import { isRefusalCode, statusOfRefusal } from "../../../core/refusals.js";

/*
 * Every refusal the edge answers comes from its table (core/edge-refusals.ts), built by edgeError
 * or edgeRefusalBody: outside core/, where the tables and their builders live, no code or reason
 * is written into an answer by hand, no GraphQL error is made but by the builders, and no REST
 * error is given a status of its own. The exceptions below are each found where they are said to
 * be (the list only shrinks), and every entry of the table is used somewhere.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const FOLDERS = ["server", "gateway", "identity", "subgraphs", "rest-compat"];

/** What the scan finds and is allowed to, by file and the start of what it found, with the reason. */
const EXCEPTIONS: { file: string; found: string; why: string }[] = [
  { file: "gateway/direct-execution.ts", found: "new GraphQLError(original.message", why: "a thrown value wrapped as Apollo Server wraps it: no code, so formatted as INTERNAL_SERVER_ERROR" },
  { file: "gateway/subscriptions/subscription-engine.ts", found: "new GraphQLError(error.message", why: "an error the graph answered, rebuilt with its own code and path" },
  { file: "gateway/subscriptions/ws-server.ts", found: 'new GraphQLError("No operation to run"', why: "graphql-ws identifies the operation before it subscribes, refusing one it cannot: a guard no message reaches" },
  { file: "subgraphs/common/json.scalars.ts", found: "new GraphQLError(`${name} must be a JSON object`", why: "a scalar's coercion error: graphql-js makes it part of its own refusal of the variable or argument" },
  { file: "subgraphs/common/json.scalars.ts", found: "new GraphQLError(`${name} must be an object literal`", why: "a scalar's coercion error, as above" },
  { file: "subgraphs/common/json.scalars.ts", found: 'new GraphQLError("Variables are not accepted inside JSON literals', why: "a scalar's coercion error, as above" },
  { file: "subgraphs/catalogue/product/product.consumer.ts", found: 'reason: "DEPRECATED"', why: "a product descriptor's reason: data of the graph, not a refusal" },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith(".ts") ? [full] : [];
  });
}

const ours = () => FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder))).map((file) => ({ file: path.relative(root, file).split(path.sep).join("/"), text: readFileSync(file, "utf8") }));

const isCodeLiteral = (node: ts.Node): node is ts.StringLiteralLike => ts.isStringLiteralLike(node) && /^[A-Z][A-Z0-9_]*$/.test(node.text);

/** The refusals built by hand in a file: a code or reason written into an object, a GraphQL error made, a REST error's own status. */
function handBuilt(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ["code", "reason"].includes(node.name.getText(source).replace(/["']/g, "")) && isCodeLiteral(node.initializer)) {
      found.push(node.getText(source));
    } else if (ts.isNewExpression(node) && node.expression.getText(source) === "GraphQLError") {
      found.push(node.getText(source));
    } else if (ts.isNewExpression(node) && node.expression.getText(source) === "RestError" && node.arguments?.[0] && ts.isNumericLiteral(node.arguments[0])) {
      // A REST path's own refusal of the services' table is restRejected(name, …), which takes its status from the table.
      found.push(node.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map((text) => `${file}: ${text.replace(/\s+/g, " ")}`);
}

/** The names of the table a file uses: as string literals, or as EDGE_REFUSALS.NAME, in a file that imports the table. */
function namesUsed(text: string): string[] {
  if (!text.includes("core/edge-refusals.js")) return [];
  const source = ts.createSourceFile("used.ts", text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node)) names.push(node.text);
    else if (ts.isPropertyAccessExpression(node) && node.expression.getText(source) === "EDGE_REFUSALS") names.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function unused(names: string[], files: { text: string }[]): string[] {
  const used = new Set(files.flatMap((file) => namesUsed(file.text)));
  return names.filter((name) => !used.has(name));
}

const excepted = (finding: string) => EXCEPTIONS.some((exception) => finding.startsWith(`${exception.file}: ${exception.found}`));

describe("the edge's refusals", () => {
  it("are built from the table alone: no code, reason or GraphQL error by hand outside core/, but the exceptions listed", () => {
    const findings = ours().flatMap(({ file, text }) => handBuilt(file, text));
    expect(findings.filter((finding) => !excepted(finding))).toEqual([]);
    const stale = EXCEPTIONS.filter((exception) => !findings.some((finding) => finding.startsWith(`${exception.file}: ${exception.found}`)));
    expect(stale, "an exception no longer found: take it off the list").toEqual([]);
  });

  it("find a refusal planted by hand, a REST error given its status by hand included, and leave the table's builders alone", () => {
    const planted = [
      'sendError(request, reply, { status: 503, code: "OVERLOADED", message: "m" });',
      'throw new GraphQLError("m", { extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET" } });',
      'throw new RestError(400, "BAD_REQUEST", "m");',
      'throw new RestError(400, "NOT_FOUND", "m");',
      'throw new RestError(404, "NOT_FOUND", "m");',
      'throw restRejected("NOT_FOUND", "m");',
      'throw edgeError("COST_BUDGET", "m", { extensions: { retryAfterSeconds: 1 } });',
    ].join("\n");
    expect(handBuilt("planted.ts", planted)).toEqual([
      'planted.ts: code: "OVERLOADED"',
      'planted.ts: new GraphQLError("m", { extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET" } })',
      'planted.ts: code: "TOO_MANY_REQUESTS"',
      'planted.ts: reason: "COST_BUDGET"',
      'planted.ts: new RestError(400, "BAD_REQUEST", "m")',
      'planted.ts: new RestError(400, "NOT_FOUND", "m")',
      'planted.ts: new RestError(404, "NOT_FOUND", "m")',
    ]);
  });

  it("are all used, and an entry nothing uses is found", () => {
    const names = Object.keys(EDGE_REFUSALS);
    expect(unused(names, ours())).toEqual([]);
    expect(unused([...names, "PLANTED_UNUSED"], ours())).toEqual(["PLANTED_UNUSED"]);
  });

  it("are each named by the most specific word their answer carries, and agree with the statuses of the other tables", () => {
    for (const name of Object.keys(EDGE_REFUSALS) as EdgeRefusalName[]) {
      const refusal: EdgeRefusal = EDGE_REFUSALS[name];
      expect(refusal.reason ?? refusal.code, name).toBe(name);
      if (Object.hasOwn(HTTP_STATUS_OF_CODE, refusal.code)) expect(refusal.status, name).toBe(HTTP_STATUS_OF_CODE[refusal.code as keyof typeof HTTP_STATUS_OF_CODE]);
      if (isRefusalCode(name)) expect(refusal.status, name).toBe(statusOfRefusal(name));
    }
  });

  it("are built with the entry's code, reason and status, in the order the answers always had", () => {
    const refused = edgeError("COST_BUDGET", "m", { extensions: { code: "OTHER", reason: "OTHER", retryAfterSeconds: 3 }, http: new Map([["retry-after", "3"]]) });
    expect(Object.keys(refused.extensions)).toEqual(["code", "reason", "retryAfterSeconds", "http"]);
    expect(refused.extensions).toEqual({ code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", retryAfterSeconds: 3, http: { status: 429, headers: new Map([["retry-after", "3"]]) } });
    expect(JSON.stringify(edgeError("TOO_DEEP", "m", { http: true }).toJSON())).toBe('{"message":"m","extensions":{"code":"GRAPHQL_VALIDATION_FAILED","reason":"TOO_DEEP","http":{"status":400}}}');
    expect(JSON.stringify(edgeError("INTERNAL_SERVER_ERROR", "m", { path: ["a", 0] }).toJSON())).toBe('{"message":"m","path":["a",0],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}');
    expect(JSON.stringify(edgeRefusalBody("IN_FLIGHT", "m"))).toBe('{"status":429,"code":"TOO_MANY_REQUESTS","reason":"IN_FLIGHT","message":"m"}');
    expect(JSON.stringify(edgeRefusalBody("VALIDATION_FAILED", "m", [{ field: "f", rule: "r", message: "x" }]))).toBe(
      '{"status":400,"code":"VALIDATION_FAILED","message":"m","details":[{"field":"f","rule":"r","message":"x"}]}',
    );
    expect(graphqlBodyOf(edgeRefusalBody("OVERLOADED", "m"))).toEqual({ errors: [{ message: "m", extensions: { code: "OVERLOADED" } }] });
    expect(graphqlBodyOf(edgeRefusalBody("REQUEST_RATE", "m"))).toEqual({ errors: [{ message: "m", extensions: { code: "TOO_MANY_REQUESTS", reason: "REQUEST_RATE" } }] });
    // @ts-expect-error a name outside the table does not compile
    expect(() => edgeError("NOT_A_REFUSAL", "m")).toThrow();
  });
});
