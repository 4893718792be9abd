/**
 * Counts the runtime exports of every entry point of every built package: each `exports` entry
 * of packages/<name>/package.json is loaded with `import()` and with `require()`, and the keys
 * of the module are counted; the names its `.d.mts` exports (values and types) are counted too.
 * Usage: pnpm run build && npx tsx scripts/count-exports.ts [--names]
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

type Target = { types?: string; default?: string } | string;
type Conditions = { import?: Target; require?: Target };

const root = resolve(import.meta.dirname, "..", "packages");
const showNames = process.argv.includes("--names");

function target(condition: Target | undefined): string | undefined {
  return typeof condition === "string" ? condition : condition?.default;
}

/** Names a bundled declaration file exports: its `export { … }` lists (values and types). */
function declaredNames(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const names = [...text.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) =>
    (m[1] ?? "")
      .split(",")
      .map(
        (n) =>
          n
            .replace(/^\s*type\s+/, "")
            .split(" as ")
            .pop()
            ?.trim() ?? "",
      )
      .filter(Boolean),
  );
  return [...new Set(names)].sort();
}

/** Keys a module really exports (the ESM namespace's `default` and CJS's `__esModule` are plumbing). */
function exportNames(mod: object): string[] {
  return Object.keys(mod)
    .filter((key) => key !== "default" && key !== "__esModule" && key !== "module.exports")
    .sort();
}

for (const name of readdirSync(root).sort()) {
  const dir = join(root, name);
  let manifest: { name: string; exports?: Record<string, Conditions | string> };
  try {
    manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  const require = createRequire(join(dir, "package.json"));
  for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
    if (typeof conditions === "string") continue; // ./package.json
    const esmFile = target(conditions.import);
    const cjsFile = target(conditions.require);
    const esm = esmFile ? exportNames(await import(pathToFileURL(join(dir, esmFile)).href)) : [];
    const cjs = cjsFile ? exportNames(require(join(dir, cjsFile)) as object) : [];
    const types = typeof conditions.import === "object" ? conditions.import.types : undefined;
    const declared = types ? declaredNames(join(dir, types)).length : 0;
    const entry = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    console.log(
      `${entry}: ${esm.length} runtime exports (import), ${cjs.length} (require); ${declared} with types`,
    );
    if (esm.join() !== cjs.join()) console.log(`  ! import and require differ for ${entry}`);
    if (showNames) console.log(`  ${esm.join(", ")}`);
  }
}
