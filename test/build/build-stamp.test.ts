// The build stamp decides whether `pnpm demo` / `pnpm test` rebuild a package: an edit must
// always rebuild, a checkout or touch must not, and the cheap size+mtime check must never hide
// an edit made too close to the stamp's writing to tell apart by mtime.
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearStamp, isUpToDate, writeStamp } from "../../scripts/build-stamp.mjs";

const STAMP = join("node_modules", ".cache", "pageindex-build", "stamp.json");

describe("build stamps", () => {
  let pkg: string;
  /** Sets `file`'s mtime `secondsAgo` in the past, as an old checkout leaves it. */
  const age = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(pkg, file), when, when);
  };
  /** A built package whose sources are a minute old: the stamp trusts their mtimes. */
  const built = () => {
    for (const file of ["src/index.ts", "src/util/more.ts", "package.json"]) age(file, 60);
    writeStamp(pkg);
  };
  const stamp = () => JSON.parse(readFileSync(join(pkg, STAMP), "utf8"));

  beforeEach(async () => {
    pkg = await mkdtemp(join(tmpdir(), "pageindex-stamp-"));
    mkdirSync(join(pkg, "src", "util"), { recursive: true });
    mkdirSync(join(pkg, "dist"));
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "tiny", dependencies: {} }));
    writeFileSync(join(pkg, "src", "index.ts"), "export const answer = 42;\n");
    writeFileSync(join(pkg, "src", "util", "more.ts"), "export const more = 1;\n");
    writeFileSync(join(pkg, "dist", "index.mjs"), "export const answer = 42;\n");
  });
  afterEach(async () => {
    delete process.env.PAGEINDEX_FORCE_BUILD;
    await rm(pkg, { recursive: true, force: true });
  });

  it("a package never built, or whose stamp was cleared, is stale", () => {
    expect(isUpToDate(pkg)).toBe(false);
    built();
    expect(isUpToDate(pkg)).toBe(true);
    clearStamp(pkg);
    expect(isUpToDate(pkg)).toBe(false);
  });

  it("an edited, added or removed source makes it stale", () => {
    built();
    writeFileSync(join(pkg, "src", "index.ts"), "export const answer = 43;\n");
    expect(isUpToDate(pkg)).toBe(false);

    built();
    writeFileSync(join(pkg, "src", "util", "new.ts"), "export {};\n");
    expect(isUpToDate(pkg)).toBe(false);

    rmSync(join(pkg, "src", "util", "new.ts"));
    built();
    rmSync(join(pkg, "src", "util", "more.ts"));
    expect(isUpToDate(pkg)).toBe(false);
  });

  it("a same-size edit is caught even with the old mtime put back, while that mtime is recent", () => {
    // Sources written just now: their mtimes are too close to the stamp to vouch for content.
    writeStamp(pkg);
    const file = join(pkg, "src", "index.ts");
    const { mtime } = statSync(file);
    writeFileSync(file, "export const answer = 24;\n");
    utimesSync(file, mtime, mtime);
    expect(isUpToDate(pkg)).toBe(false);
  });

  it("a touch or a checkout of the same content does not rebuild, and the new mtimes are kept", () => {
    built();
    const before = stamp();
    age("src/index.ts", 30);
    expect(isUpToDate(pkg)).toBe(true);
    const after = stamp();
    expect(after.hash).toBe(before.hash);
    const key = Object.keys(after.inputs).find((name) => name.endsWith(join("src", "index.ts"))) as string;
    expect(after.inputs[key]).not.toEqual(before.inputs[key]);
    expect(after.inputs[key][1]).toBe(statSync(join(pkg, "src", "index.ts")).mtimeMs);
    expect(isUpToDate(pkg)).toBe(true);
  });

  it("a missing output, a damaged stamp or PAGEINDEX_FORCE_BUILD=1 makes it stale", () => {
    built();
    process.env.PAGEINDEX_FORCE_BUILD = "1";
    expect(isUpToDate(pkg)).toBe(false);
    delete process.env.PAGEINDEX_FORCE_BUILD;
    expect(isUpToDate(pkg)).toBe(true);
    rmSync(join(pkg, "dist", "index.mjs"));
    expect(isUpToDate(pkg)).toBe(false);
    writeFileSync(join(pkg, "dist", "index.mjs"), "export const answer = 42;\n");
    expect(isUpToDate(pkg)).toBe(true);
    writeFileSync(join(pkg, STAMP), '{"hash": "abc", "outp');
    expect(isUpToDate(pkg)).toBe(false);
  });
});
