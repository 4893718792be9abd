import { defineConfig } from "tsdown";

/**
 * Declarations go to a chunk named `shared.d`, which rolldown-plugin-dts writes as
 * `shared-<hash>.d.mts`/`.d.cts`; under the plain name "shared" they were written into the JS
 * chunk, so the published `.d.mts` imported types from a file that has none.
 */
const sharedChunkName = (moduleId: string): string =>
  /\.d\.[cm]?ts$/.test(moduleId) ? "shared.d" : "shared";

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
  outputOptions: { codeSplitting: { groups: [{ name: sharedChunkName, minShareCount: 2 }] } },
});
