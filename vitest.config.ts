import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // One copy of graphql: type-graphql and Apollo load its CommonJS build, so ours must too.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // They run on the embedded database whatever DATABASE_URL says (graceful shutdown's child
    // processes; PGlite's database templates), so the PostgreSQL run of the suite would repeat
    // them unchanged.
    exclude: process.env.DATABASE_URL ? ["test/security/graceful-shutdown.test.ts", "test/integration/pglite-template.test.ts", "test/security/planted-database-template.test.ts"] : [],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here and in CI.
    maxWorkers: 2,
    // Files run one after another in each worker, which imports the stack once (about 5 s a
    // file otherwise) and lends every file one embedded database (test/support/stack.ts).
    isolate: false,
    reporters: ["default"],
  },
});
