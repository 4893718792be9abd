import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/errors-entry.ts"],
  format: ["esm", "cjs"],
  dts: true,
  platform: "node",
  target: "node20",
  clean: true,
  sourcemap: true,
  // Code both entries use goes to one shared chunk: one copy of each error class, so
  // `instanceof` holds between `pageindex-core` and `pageindex-core/errors`.
  outputOptions: { codeSplitting: { groups: [{ name: "shared", minShareCount: 2 }] } },
});
