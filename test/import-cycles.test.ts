import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The import graph of the TypeScript files under `dirs` (relative `.js` specifiers and the
 * tsconfig's package paths resolved to `.ts` sources; `import type` counts, as in
 * `madge --circular`) and its cycles.
 */
async function importGraph(baseDir: string, dirs: string[], tsConfig: string) {
  const result = await madge(
    dirs.map((d) => join(baseDir, d)),
    { baseDir, fileExtensions: ["ts"], tsConfig: join(baseDir, tsConfig), excludeRegExp: [/\.d\.ts$/] },
  );
  return { graph: result.obj(), cycles: result.circular() };
}

const describeCycles = (cycles: string[][]): string =>
  cycles.map((c, i) => `${i + 1}. ${[...c, c[0]].join(" → ")}`).join("\n");

describe("import cycles", () => {
  const fixture = mkdtempSync(join(tmpdir(), "pageindex-cycles-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("the check finds a cycle written with .js specifiers between .ts files", async () => {
    writeFileSync(
      join(fixture, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }),
    );
    writeFileSync(join(fixture, "a.ts"), 'import { b } from "./b.js";\nexport const a = () => b();\n');
    writeFileSync(
      join(fixture, "b.ts"),
      'import type { c } from "./c.js";\nexport const b = (x?: c) => x;\n',
    );
    writeFileSync(
      join(fixture, "c.ts"),
      'import { a } from "./a.js";\nexport type c = ReturnType<typeof a>;\n',
    );
    writeFileSync(join(fixture, "leaf.ts"), 'import { a } from "./a.js";\nexport const leaf = a;\n');
    const { graph, cycles } = await importGraph(fixture, ["."], "tsconfig.json");
    expect(graph["leaf.ts"]).toEqual(["a.ts"]);
    expect(cycles).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("no package source imports itself back (packages/*/src)", async () => {
    const dirs = readdirSync(join(ROOT, "packages")).map((p) => join("packages", p, "src"));
    const { graph, cycles } = await importGraph(ROOT, dirs, "tsconfig.json");
    // The graph is real: files resolved, and package names resolved to their sources.
    const edges = Object.values(graph).flat();
    expect(edges.length).toBeGreaterThan(Object.keys(graph).length);
    expect(edges).toContain("packages/pageindex-store/src/index.ts");
    if (cycles.length > 0) {
      expect.fail(`${cycles.length} import cycle(s) in packages/*/src:\n${describeCycles(cycles)}`);
    }
  }, 180_000);
});
