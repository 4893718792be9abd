import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The built declaration files, as a user's TypeScript reads them: every relative import of a
 * `dist/*.d.mts` / `*.d.cts` must name a file that has declarations. When one names a JS chunk
 * with no `.d.*` beside it, TypeScript types everything imported from it as `any` (with
 * `skipLibCheck`, silently): `PdfLoadError` lost `name`, a `DocumentCard` its `docName`.
 */
const packages = resolve(dirname(fileURLToPath(import.meta.url)), "..", "packages");

/** The declaration file TypeScript looks for behind a relative specifier of a declaration file. */
function declarationOf(dir: string, specifier: string): string {
  const file = join(dir, specifier);
  if (/\.d\.[cm]?ts$/.test(file)) return file;
  return file
    .replace(/\.mjs$/, ".d.mts")
    .replace(/\.cjs$/, ".d.cts")
    .replace(/\.js$/, ".d.ts");
}

/** Relative specifiers of `from "./…"` and `import("./…")` in a declaration file's text. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\(\s*)"(\.\.?\/[^"]+)"/g)].map((m) => m[1] ?? "");
}

describe("built declaration files", () => {
  // The libraries (the CLI is a program: it ships no declarations).
  const dists = readdirSync(packages)
    .filter((name) => existsSync(join(packages, name, "package.json")))
    .filter((name) => "types" in JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")))
    .map((name) => join(packages, name, "dist"));

  it("finds the four libraries", () => {
    expect(dists.length).toBe(4);
  });

  for (const dist of dists) {
    it(`${dist.split("/").at(-2)}: every relative import has declarations`, () => {
      const files = readdirSync(dist).filter((file) => /\.d\.[cm]?ts$/.test(file));
      expect(files.length).toBeGreaterThan(0);
      const missing = files.flatMap((file) =>
        relativeImports(readFileSync(join(dist, file), "utf8"))
          .filter((specifier) => !existsSync(declarationOf(dist, specifier)))
          .map((specifier) => `${file} → ${specifier}`),
      );
      expect(missing).toEqual([]);
    });
  }
});
