import "reflect-metadata";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedSchemaFiles, schemaFolder } from "./files.js";
import { refusalsDocPath, refusalsDocument } from "./refusals-doc.js";

/** `npm run schema`: writes each subgraph's SDL, the composed supergraph and the edge subscriptions into schema/, and the table of refusals into docs/. */
const files = await generatedSchemaFiles();
for (const [name, text] of Object.entries(files)) {
  await writeFile(path.join(schemaFolder, name), text);
  console.log(`wrote schema/${name}`);
}
await writeFile(refusalsDocPath, refusalsDocument());
console.log("wrote docs/refusals.md");
