// Loaded with `node --import`: from then on every module the process resolves through the ESM
// loader (every import and import(), not a require() inside a CommonJS package) is appended, as
// its URL on a line of its own, to the file MODULE_RECORD names. The hooks run on a thread of
// their own, which writes the file synchronously so that no line is lost when the process exits.
import { register } from "node:module";

if (process.env.MODULE_RECORD) register("./module-record-hooks.mjs", { parentURL: import.meta.url, data: { file: process.env.MODULE_RECORD } });
