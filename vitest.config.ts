import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests run against the TypeScript sources so a failure points at real lines; the CLI
// tests run the built binary on purpose (see test/cli).
export default defineConfig({
  resolve: {
    alias: {
      "pageindex-store": src("pageindex-store"),
      "pageindex-loader": src("pageindex-loader"),
      "pageindex-retriever": src("pageindex-retriever"),
    },
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
