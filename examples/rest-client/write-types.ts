import { writeFile } from "node:fs/promises";
import path from "node:path";
import { clientTypesFile, generatedClientTypes } from "./openapi.js";

/** `npm run codegen:rest`: writes the REST client's types from the OpenAPI document the code builds. */
await writeFile(clientTypesFile, await generatedClientTypes());
console.log(`wrote ${path.relative(process.cwd(), clientTypesFile)}`);
