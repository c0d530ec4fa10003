import "reflect-metadata";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedSchemaFiles, schemaFolder } from "./files.js";

/** `npm run schema`: writes each subgraph's SDL, the composed supergraph and the edge subscriptions into schema/. */
const files = await generatedSchemaFiles();
for (const [name, text] of Object.entries(files)) {
  await writeFile(path.join(schemaFolder, name), text);
  console.log(`wrote schema/${name}`);
}
