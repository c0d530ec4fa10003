import path from "node:path";
import { generateClient, generatedClientFolder } from "./generate.js";

/** `npm run codegen:client`: writes the @hey-api/openapi-ts client from the OpenAPI document the code builds. */
await generateClient(generatedClientFolder);
console.log(`wrote ${path.relative(process.cwd(), generatedClientFolder)}/`);
