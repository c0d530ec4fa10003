import { createHash } from "node:crypto";
import AjvCompiler from "@fastify/ajv-compiler";
import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import type { FastifyServerOptions } from "fastify";

/**
 * Fastify compiles each route's request schemas into Ajv validators and its response schemas into
 * fast-json-stringify serializers every time an app is built: 0.4 s of CPU for this service's
 * routes. `npm start` builds one app a process, but the test suite builds about a hundred in a
 * worker and the benchmarks several, so what was compiled is kept for the process's life, named by
 * everything it was compiled from: the schema, the shared schemas it may refer to and the
 * compiler's options. The set is bounded by the code: schemas come from route definitions, never
 * from requests.
 */
type RouteSchema = { schema: unknown; method?: string; url?: string; httpPart?: string; httpStatus?: string; contentType?: string };
type Compile = (route: RouteSchema) => unknown;
type Factory = (externalSchemas: unknown, options: unknown) => Compile;

const compiled = new Map<string, unknown>();

const digest = (value: unknown): string => createHash("sha256").update(JSON.stringify(value) ?? "undefined").digest("base64");

function remembering(kind: string, factory: Factory): Factory {
  return (externalSchemas, options) => {
    // Made on the first schema not compiled before: Ajv's compiler makes an Ajv instance when made.
    let compile: Compile | undefined;
    // Options are named by their JSON: functions in them (Ajv plugins, onCreate) would not count,
    // and this service passes none.
    const context = `${kind} ${digest([externalSchemas, options])}`;
    return (route) => {
      // Fastify's compilers read only the schema; the request part stays in the key so that no
      // future compiler that treats parts apart could hand one part's function to another.
      const key = `${context} ${route.httpPart ?? ""} ${digest(route.schema)}`;
      let fn = compiled.get(key);
      if (fn === undefined) {
        compile ??= factory(externalSchemas, options);
        fn = compile(route);
        compiled.set(key, fn);
      }
      return fn;
    };
  };
}

type Compilers = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>;

export const routeSchemaCompilers: Compilers = {
  buildValidator: remembering("validator", AjvCompiler() as unknown as Factory) as unknown as Compilers["buildValidator"],
  buildSerializer: remembering("serializer", SerializerSelector() as unknown as Factory) as unknown as Compilers["buildSerializer"],
};
