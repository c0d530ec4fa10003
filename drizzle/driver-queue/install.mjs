// Writes the bounded queue (queue.js beside this file) over postgres.js's own, in each of its
// builds (ESM, Cloudflare, CommonJS). Run by `npm ci` and `npm install` (package.json
// postinstall). A postgres.js whose queue.js is neither its 3.4.9 text nor ours (this version or
// an earlier one, known by its first line) stops the install: whoever upgrades the driver checks
// whether the new queue still grows (queue.js explains how) and then updates or removes this step.
// test/integration/driver-queue.test.ts checks the installed result and both outcomes.
// To undo it: `npm ci` with this step removed from postinstall (the package is written afresh), or
// PERFORMANCE_SHORTCUTS_OFF=driver-queue, which builds the pools with the driver's own queue kept in queue.js.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const bounded = readFileSync(path.join(here, "queue.js"), "utf8");
const asCommonJs = (text) => text.replace(/^export default Queue$/m, "module.exports = Queue");
const ours = (text) => text.startsWith(bounded.slice(0, bounded.indexOf("\n")));

// postgres.js 3.4.9's queue.js, ESM build; the CommonJS build differs only in its export line.
const ORIGINAL = `export default Queue

function Queue(initial = []) {
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }
  }
}
`;

// The package's own directory (or the one given, for tests): its exports map hides package.json,
// and its CommonJS entry sits in cjs/src.
const root = process.argv[2] ?? path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../..");
if (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).name !== "postgres") throw new Error(`drizzle/driver-queue: no postgres.js package at ${root}`);
const builds = [
  { file: "src/queue.js", text: (t) => t },
  { file: "cf/src/queue.js", text: (t) => t },
  { file: "cjs/src/queue.js", text: asCommonJs },
];
for (const { file, text } of builds) {
  const target = path.join(root, file);
  const current = readFileSync(target, "utf8");
  if (current === text(bounded)) continue;
  if (current !== text(ORIGINAL) && !ours(current)) {
    console.error(`drizzle/driver-queue: ${target} is not postgres.js 3.4.9's queue; see drizzle/driver-queue/queue.js before upgrading`);
    process.exit(1);
  }
  writeFileSync(target, text(bounded));
  console.log(`drizzle/driver-queue: bounded queue written to ${path.relative(process.cwd(), target)}`);
}
