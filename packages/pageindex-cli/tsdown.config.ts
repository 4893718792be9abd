import { defineConfig } from "tsdown";

export default defineConfig({
  // The `pageindex` bin: ESM only, no typings (it is a program, not an API).
  entry: { cli: "src/cli.ts" },
  format: ["esm"],
  dts: false,
  platform: "node",
  target: "node20",
  clean: false,
  sourcemap: true,
});
