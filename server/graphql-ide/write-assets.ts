import { writeIdeAssets } from "./bundle.js";

/** `npm run build` runs this with the folder beside the compiled bundle.js (dist/server/graphql-ide/ide-assets). */
const folder = process.argv[2];
if (!folder) throw new Error("usage: write-assets.ts <folder>");
await writeIdeAssets(folder);
