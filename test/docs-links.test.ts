import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REMARK = join(ROOT, "node_modules", "remark-cli", "cli.js");
// Given by path, so the check also runs in a fixture folder outside the workspace.
const VALIDATE_LINKS = join(ROOT, "node_modules", "remark-validate-links", "index.js");

/** The documentation a reader follows links through: READMEs and everything under docs/. */
function documentationFiles(): string[] {
  const files = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  for (const parent of ["packages", "scripts", "examples"]) {
    const readme = join(parent, "README.md");
    if (existsSync(join(ROOT, readme))) files.push(readme);
    for (const entry of readdirSync(join(ROOT, parent), { withFileTypes: true })) {
      const nested = join(parent, entry.name, "README.md");
      if (entry.isDirectory() && existsSync(join(ROOT, nested))) files.push(nested);
    }
  }
  return files;
}

/**
 * remark-validate-links over `files` (relative to `cwd`): every relative link must name a file
 * that exists and, with `#anchor`, a heading in it (GitHub's anchors). Checked across the files
 * given, so a link into another README is checked against that README's headings.
 */
async function brokenLinks(cwd: string, files: string[]): Promise<{ failed: boolean; report: string }> {
  const args = [REMARK, "--frail", "--quiet", "--no-stdout", "--no-color", "--no-config", "--no-ignore"];
  args.push("--use", `${VALIDATE_LINKS}=repository:false`, ...files);
  try {
    const { stderr } = await promisify(execFile)(process.execPath, args, { cwd });
    return { failed: false, report: stderr };
  } catch (error) {
    return { failed: true, report: String((error as { stderr?: string }).stderr ?? error) };
  }
}

describe("documentation links", () => {
  const fixture = mkdtempSync(join(tmpdir(), "pageindex-links-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("the check reports a missing file, a missing heading and a heading missing in another file", async () => {
    mkdirSync(join(fixture, "docs"));
    writeFileSync(join(fixture, "README.md"), "# Top\n\n## Measured so far\n\n[ok](docs/a.md#kept)\n");
    writeFileSync(
      join(fixture, "docs", "a.md"),
      "# A\n\n## Kept\n\n[up](../README.md#measured-so-far) [self](#kept)\n",
    );
    expect(await brokenLinks(fixture, ["README.md", "docs"])).toMatchObject({ failed: false });

    writeFileSync(
      join(fixture, "docs", "b.md"),
      "# B\n\n[gone](missing.md) [here](#nowhere) [there](../README.md#measured-so-far-today)\n",
    );
    const { failed, report } = await brokenLinks(fixture, ["README.md", "docs"]);
    expect(failed).toBe(true);
    expect(report).toContain("missing.md");
    expect(report).toContain("#nowhere");
    expect(report).toContain("#measured-so-far-today");
  });

  it("every relative link in the READMEs and docs/ resolves, anchors included", async () => {
    const files = documentationFiles();
    expect(files).toEqual(expect.arrayContaining(["README.md", join("docs", "history", "README.md")]));
    const { failed, report } = await brokenLinks(ROOT, files);
    if (failed) expect.fail(`broken links:\n${report}`);
  });

  it("the README's two commands are the ones CI runs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8");
    const block = readme.match(/## Two commands\n[\s\S]*?```bash\n([\s\S]*?)```/)?.[1] ?? "";
    const commands = block.split("\n").map((line) => line.replace(/#.*/, "").trim());
    expect(commands.filter(Boolean)).toEqual(["pnpm install && pnpm demo", "pnpm test"]);
    const ciLines = ci.split("\n").map((line) => line.trim());
    expect(ciLines).toEqual(
      expect.arrayContaining(["pnpm install --frozen-lockfile", "pnpm demo", "pnpm test"]),
    );
  });
});
