import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@hey-api/openapi-ts";
import { buildOpenApiDocument } from "../rest-client/openapi.js";

/** Where `npm run codegen:client` writes the client; committed, and checked for drift by a test. */
export const generatedClientFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "sdk");

/**
 * A client of the REST layer by a second generator (@hey-api/openapi-ts, with its own fetch client
 * bundled into the output, so the generated files need no runtime package), from the OpenAPI
 * document the code builds in process: types, one function per operation named by its
 * operationId, and the client they share.
 */
export async function generateClient(folder: string): Promise<void> {
  const document = await buildOpenApiDocument();
  await createClient({
    input: document as never,
    // .js in imports: the project resolves modules as Node does (NodeNext), and so may a user's.
    output: { path: folder, importFileExtension: ".js", tsConfigPath: null },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
    logs: { level: "silent", file: false },
  });
}
