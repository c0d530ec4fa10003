import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where every benchmark run is kept, one file per run (docs/performance.md says what they show). */
export const RESULTS_FOLDER = fileURLToPath(new URL("./results/", import.meta.url));

/**
 * Writes one run's markdown to a new file `<folder>/<date>-<slug>.md`, or `-2`, `-3`, … when a
 * run of that day and slug is there already: a run never edits an earlier run's file. `date` is
 * the run's (YYYY-MM-DD, today's by default). Returns the path written.
 */
export function writeRunResults(slug: string, markdown: string, options: { date?: string; folder?: string } = {}): string {
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const folder = options.folder ?? RESULTS_FOLDER;
  mkdirSync(folder, { recursive: true });
  const text = `${markdown.replace(/^\n+/, "").replace(/\n*$/, "")}\n`;
  for (let n = 1; ; n++) {
    const file = path.join(folder, `${date}-${slug}${n === 1 ? "" : `-${n}`}.md`);
    try {
      // "wx": created here or not at all, so two runs finishing together cannot take one name.
      writeFileSync(file, text, { flag: "wx" });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
