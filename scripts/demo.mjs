// `pnpm demo`: builds what changed, then runs `pageindex demo` in this same process, in the
// folder pnpm was started from (INIT_CWD). One Node start instead of two, and no source is read
// when nothing changed (see build-stamp.mjs), so a second `pnpm demo` costs little more than
// pnpm's own start-up on top of the demo itself.
// Usage: pnpm demo [-- --model …]; arguments after `demo` go to the CLI.
import { join } from "node:path";
import { buildChanged } from "./build.mjs";
import { root } from "./build-stamp.mjs";

const failed = buildChanged();
if (failed) {
  console.error(failed);
  process.exit(1);
}
const bin = join(root, "packages", "pageindex-cli", "bin", "pageindex.mjs");
process.chdir(process.env.INIT_CWD || process.cwd());
// The CLI reads its arguments from process.argv, as when started as the bin.
process.argv = [process.argv[0], bin, "demo", ...process.argv.slice(2)];
await import(bin);
