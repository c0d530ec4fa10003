import { defineConfig } from "vitest/config";
import { testFilesWithoutDatabase } from "./test/support/database-use.js";

/**
 * Files that drive Chromium through playwright-core, which makes an AsyncLocalStorage of its own:
 * once made, every promise of the process pays a hook, for as long as the process lives. They run
 * in processes of their own, so that no other file shares one with such a hook (the benchmark's
 * check that production runs without one would otherwise see Playwright's).
 */
const browserFiles = ["test/e2e/graphql-ide.test.ts", "test/e2e/openapi-console-browser.test.ts"];

// The PostgreSQL run of the suite would repeat them unchanged: they run on the embedded database
// whatever DATABASE_URL says (graceful shutdown's child processes; PGlite's database templates and thread),
// or look at what does not depend on it (the tracing modules a started process imports).
const embeddedOnly = process.env.DATABASE_URL
  ? [
      "test/security/graceful-shutdown.test.ts",
      "test/integration/pglite-template.test.ts",
      "test/security/planted-database-template.test.ts",
      "test/e2e/tracing-modules.test.ts",
      "test/integration/pglite-thread-stop.test.ts",
      // Node's own timeouts on slow heads, bodies and idle connections: no statement is involved.
      "test/security/slow-connections.test.ts",
      // The console's page in Chromium: its document and its sign-in, read the same from either
      // database (the GraphQL IDE's file stays on both: its subscription is LISTEN's on PostgreSQL).
      "test/e2e/openapi-console-browser.test.ts",
    ]
  : [];
// What needs several processes sharing one database, which only PostgreSQL serves (the limits of
// a service of two processes; a sandbox and a production service on one database); and the checks
// that a benchmark's harness still runs, where its documented runs are measured (PostgreSQL): the
// harness is the same code on either database.
const postgresOnly = process.env.DATABASE_URL
  ? []
  : ["test/e2e/shared-limits.test.ts", "test/e2e/operator-environments.test.ts", "test/integration/bench-paths.test.ts", "test/integration/subscription-bench.test.ts"];
// A file that opens no database (the unit tier, and the graph's lint, the generated code's drift
// and the like) would repeat itself unchanged on PostgreSQL: it runs with the embedded run only
// (test/support/database-use.ts tells which; test/unit/architecture/unit-tier.test.ts holds it).
const databaseFree = process.env.DATABASE_URL ? testFilesWithoutDatabase(import.meta.dirname) : [];
// Files a run leaves to another (.ci/run: the PgBouncer run's files, aside from the direct
// PostgreSQL run), space-separated; vitest's --exclude does not reach a project's files.
const excludedByTheRun = (process.env.EXCLUDE_TEST_FILES ?? "").split(/\s+/).filter(Boolean);

export default defineConfig({
  resolve: {
    // One copy of graphql: type-graphql and Apollo load its CommonJS build, so ours must too.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here and in CI.
    maxWorkers: 2,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "service",
          include: ["test/**/*.test.ts"],
          exclude: [...browserFiles, ...embeddedOnly, ...databaseFree, ...postgresOnly, ...excludedByTheRun],
          // Files run one after another in each worker, which imports the stack once (about 5 s a
          // file otherwise) and lends every file one embedded database (test/support/stack.ts).
          isolate: false,
        },
      },
      { extends: true, test: { name: "browser", include: browserFiles.filter((file) => !embeddedOnly.includes(file)), isolate: true } },
    ],
  },
});
