import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string, entry = "index") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));

// Tests run against the TypeScript sources so a failure points at real lines; the CLI
// tests run the built binary on purpose (see test/cli).
export default defineConfig({
  resolve: {
    alias: [
      { find: /^pageindex-core$/, replacement: src("pageindex-core") },
      { find: /^pageindex-core\/errors$/, replacement: src("pageindex-core", "errors-entry") },
      { find: /^pageindex-store$/, replacement: src("pageindex-store") },
      { find: /^pageindex-loader$/, replacement: src("pageindex-loader") },
      { find: /^pageindex-retriever$/, replacement: src("pageindex-retriever") },
      { find: /^pageindex-retriever\/eval$/, replacement: src("pageindex-retriever", "eval") },
    ],
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    // Bounds against a hang, not a speed check: generous, for a shared machine at load 8+.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Two files per core, not vitest's default of cores − 1 (one worker on a 2-core machine):
    // the end-to-end files mostly wait on child processes (the CLI, npm, Redis, PostgreSQL).
    maxWorkers: Math.max(2, 2 * availableParallelism()),
  },
});
