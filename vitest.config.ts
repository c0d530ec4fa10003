import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here and in CI; each file starts its own database.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
