import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/eval.ts"],
  format: ["esm", "cjs"],
  dts: true,
  platform: "node",
  target: "node20",
  clean: false,
  sourcemap: true,
  // Code both entries use goes to one shared chunk, so neither entry re-exports the other's
  // internals (or the bundler's CJS interop helper) as part of its public surface.
  outputOptions: { codeSplitting: { groups: [{ name: "shared", minShareCount: 2 }] } },
});
