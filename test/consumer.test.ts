import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledProject, installedProject, packAll } from "./support/packed-install.js";

// Every timeout below is a hang bound, not a speed check: at load 8+ on two cores an npm, npx
// or tsc start alone can take a minute, and a case runs up to three of them in a row.

/**
 * The consumer's view: the packages packed as they would be published (`pnpm pack` turns
 * `workspace:*` into versions), installed with plain npm into an empty project, and used from
 * there by `import`, by `require()` and by TypeScript against the installed `.d.ts` files.
 * Needs the npm registry for the packages' dependencies; skipped, saying so, when it is not
 * reachable.
 */
const exec = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = [
  "pageindex-core",
  "pageindex-store",
  "pageindex-loader",
  "pageindex-retriever",
  "pageindex-cli",
];
/** What a project that only searches (store + retriever) must not get: the PDF engine, a provider SDK, the CLI's libraries. */
const NOT_FOR_SEARCH_ONLY = [
  "pageindex-loader",
  "pageindex-cli",
  "pdfjs-dist",
  "@napi-rs/canvas",
  "@langchain/openai",
  "openai",
  "commander",
  "cli-progress",
  "redis",
  "pg",
];
const CORE_VERSION = "1.2.18";

async function registryReachable(): Promise<boolean> {
  try {
    // A hang bound: npm alone can take tens of seconds to start on a loaded machine, and a
    // slow ping must not skip the whole file.
    await exec("npm", ["ping", "--loglevel=error"], { timeout: 120_000 });
    return true;
  } catch {
    return false;
  }
}

const online = await registryReachable();
if (!online)
  console.warn("[consumer test] npm registry not reachable: skipping the installed-package checks");

/** Sections large enough (over `collapseBelowTokens`) that the search opens the manual. */
const MANUAL = `# Tiller operator manual

Safe use of the garden tiller.

## Starting the engine

${"Open the fuel valve, set the choke lever and pull the starter cord smoothly. ".repeat(20)}

## Cleaning the tines

${"Stop the engine, wait for the tines to stop, then remove wrapped vines with gloves. ".repeat(20)}
`;

/** The same program in both module systems: index a file, search offline and with a fake model, use a tool. */
const program = (load: string) => `${load}
(async () => {
  const store = await PageIndexStore.fromPath(process.argv[2]);
  const tree = await new MarkdownTreeLoader(process.argv[3]).loadTree();
  await store.addTree(tree);
  const offline = await new PageIndexRetriever({ reader: store, k: 1 }).invoke("how do I clean the tines");
  const tines = tree.nodes.find((n) => n.title === "Cleaning the tines");
  const model = new FakeListChatModel({
    // The default strategy shows the whole (small) table of contents in one prompt.
    responses: [JSON.stringify({ relevant: [{ id: tines.nodeId, score: 0.9, reason: "cleaning" }] })],
  });
  const judged = await new PageIndexRetriever({ reader: store, model, k: 1 }).invoke("remove vines");
  const tools = createPageIndexTools(new PageIndexRetriever({ reader: store }));
  console.log(JSON.stringify({
    offline: offline[0].metadata.title,
    judged: [judged[0].metadata.title, judged[0].metadata.judge],
    tools: tools.map((t) => t.name).sort(),
  }));
})().catch((error) => { console.error((error && error.stack) || error); process.exit(1); });
`;

const CJS = program(`const { PageIndexStore } = require("pageindex-store");
const { MarkdownTreeLoader } = require("pageindex-loader");
const { PageIndexRetriever, createPageIndexTools } = require("pageindex-retriever");
const { FakeListChatModel } = require("@langchain/core/utils/testing");`);

const ESM = program(`import { PageIndexStore } from "pageindex-store";
import { MarkdownTreeLoader } from "pageindex-loader";
import { PageIndexRetriever, createPageIndexTools } from "pageindex-retriever";
import { FakeListChatModel } from "@langchain/core/utils/testing";`);

const TYPED = `import { countTokens } from "pageindex-core";
import { PageIndexStore, type TreeDocument } from "pageindex-store";
import { MarkdownTreeLoader } from "pageindex-loader";
import { PageIndexRetriever, type PageIndexDocumentMetadata } from "pageindex-retriever";
import { type EvalQuestion, parseQuestions } from "pageindex-retriever/eval";
import type { Document } from "@langchain/core/documents";

export const questions: EvalQuestion[] = parseQuestions('{"question": "tines?", "evidence": [{"page": 1}]}');

export async function search(dir: string, file: string): Promise<Document<PageIndexDocumentMetadata>[]> {
  const store = await PageIndexStore.fromPath(dir);
  const tree: TreeDocument = await new MarkdownTreeLoader(file).loadTree();
  await store.addTree(tree);
  const docs = await new PageIndexRetriever({ reader: store, k: 2 }).invoke("tines");
  const page: number | undefined = docs[0]?.metadata.startPage;
  const title: string | undefined = docs[0]?.metadata.title;
  const tokens: number = countTokens(title ?? "");
  void tokens;
  void page;
  void title;
  return docs;
}
`;

const EXPECTED = {
  offline: "Cleaning the tines",
  judged: ["Cleaning the tines", "llm"],
  tools: [
    "get_document_structure",
    "get_node_content",
    "get_page_content",
    "list_documents",
    "search_documents",
    "search_sections",
  ],
};

/** Loads every `exports` entry of an installed package with require() and import(); prints the key counts. */
const ENTRIES_SCRIPT = `
const { readFileSync } = require("node:fs");
(async () => {
  const out = {};
  for (const name of process.argv.slice(1)) {
    const manifest = JSON.parse(readFileSync(require.resolve(name + "/package.json"), "utf8"));
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === "./package.json") continue;
      const entry = subpath === "." ? name : name + subpath.slice(1);
      const cjs = Object.keys(require(entry)).filter((k) => k !== "__esModule").sort();
      const esm = Object.keys(await import(entry)).filter((k) => k !== "default").sort();
      out[entry] = { cjs: cjs.length, same: cjs.join() === esm.join() };
    }
  }
  console.log(JSON.stringify(out));
})().catch((error) => { console.error((error && error.stack) || error); process.exit(1); });
`;

describe.skipIf(!online)("packed packages installed with npm in an empty project", () => {
  /** The full install: every package (cached between runs by the tarballs' content, see packed-install). */
  let main: InstalledProject;
  /** Only the store and the retriever: what a search-only project gets. */
  let lean: InstalledProject;
  /** The store alone, outside the full project (Node would find its node_modules/redis from a subfolder). */
  let alone: InstalledProject;
  /** This run's own folder inside the installed project: what the tests write, gone afterwards. */
  let project = "";
  let packs = "";
  let tarballs = new Map<string, string>();

  beforeAll(async () => {
    packs = await mkdtemp(join(tmpdir(), "pageindex-packs-"));
    tarballs = await packAll(join(root, "packages"), PACKAGES, packs);
    const file = (name: string) => `file:${tarballs.get(name)}`;
    const core = { "@langchain/core": CORE_VERSION, "pageindex-core": file("pageindex-core") };
    [main, lean, alone] = await Promise.all([
      installedProject("main", {
        "@langchain/core": CORE_VERSION,
        ...Object.fromEntries(PACKAGES.map((name) => [name, file(name)])),
      }),
      installedProject("lean", {
        ...core,
        "pageindex-store": file("pageindex-store"),
        "pageindex-retriever": file("pageindex-retriever"),
      }),
      installedProject("store-alone", { ...core, "pageindex-store": file("pageindex-store") }),
    ]);
    project = await mkdtemp(join(main.dir, "run-"));
    await writeFile(join(project, "manual.md"), MANUAL);
  }, 600_000);

  afterAll(async () => {
    for (const dir of [project, packs]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("installs on this Node without an engine warning (EBADENGINE) from any dependency", () => {
    for (const installed of [main, lean, alone]) {
      expect(installed.npmOutput, installed.dir).not.toMatch(/EBADENGINE|Unsupported engine/);
    }
  });

  it("every tarball carries its LICENSE and README", async () => {
    expect([...tarballs.keys()]).toEqual(PACKAGES);
    for (const file of tarballs.values()) {
      const { stdout } = await exec("tar", ["-tzf", file]);
      expect(stdout.split("\n")).toEqual(expect.arrayContaining(["package/LICENSE", "package/README.md"]));
    }
  });

  for (const [format, source, file] of [
    ["require()", CJS, "main.cjs"],
    ["import", ESM, "main.mjs"],
  ] as const) {
    it(`works from ${format}: index, offline and model-judged search, agent tools`, async () => {
      await writeFile(join(project, file), source);
      const store = join(project, `store-${file}`);
      const { stdout } = await exec(process.execPath, [file, store, "manual.md"], {
        cwd: project,
        timeout: 300_000,
      });
      expect(JSON.parse(stdout.trim())).toEqual(EXPECTED);
    }, 600_000);
  }

  it("loads every entry point of every library from require() and import, with the same exports", async () => {
    const { stdout } = await exec(
      process.execPath,
      ["-e", ENTRIES_SCRIPT, "pageindex-core", "pageindex-store", "pageindex-loader", "pageindex-retriever"],
      { cwd: project, timeout: 170_000 },
    );
    const entries = JSON.parse(stdout.trim()) as Record<string, { cjs: number; same: boolean }>;
    expect(Object.keys(entries).sort()).toEqual([
      "pageindex-core",
      "pageindex-core/errors",
      "pageindex-loader",
      "pageindex-retriever",
      "pageindex-retriever/eval",
      "pageindex-store",
    ]);
    for (const [entry, { cjs, same }] of Object.entries(entries)) {
      expect(cjs, entry).toBeGreaterThan(0);
      expect(same, entry).toBe(true);
    }
  }, 600_000);

  it("installs the `pageindex` command: npx pageindex --help, index and ask", async () => {
    const help = await exec("npx", ["--no-install", "pageindex", "--help"], {
      cwd: project,
      timeout: 170_000,
    });
    expect(help.stdout).toMatch(/Usage: pageindex/);
    const index = await exec(
      "npx",
      ["--no-install", "pageindex", "--store", "cli-store", "--no-progress", "index", "manual.md"],
      { cwd: project, timeout: 170_000 },
    );
    expect(index.stderr).toMatch(/manual\.md: indexed/);
    const ask = await exec(
      "npx",
      ["--no-install", "pageindex", "--store", "cli-store", "--json", "ask", "how do I clean the tines"],
      { cwd: project, timeout: 170_000 },
    );
    expect(ask.stdout).toMatch(/Cleaning the tines/);
  }, 600_000);

  it("a project with only the store and the retriever gets no PDF engine, provider SDK or CLI library", async () => {
    const { stdout: tree } = await exec("npm", ["ls", "--all", "--parseable"], {
      cwd: lean.dir,
      timeout: 170_000,
    });
    const installed = new Set(
      tree.split("\n").map((line) => line.split("node_modules/").slice(1).join("node_modules/")),
    );
    expect(
      NOT_FOR_SEARCH_ONLY.filter((name) => [...installed].some((p) => p === name || p.endsWith(`/${name}`))),
    ).toEqual([]);
    expect(installed.has("pageindex-retriever")).toBe(true);
    expect(installed.has("pageindex-core")).toBe(true);
    const { stdout } = await exec(
      process.execPath,
      ["-e", ENTRIES_SCRIPT, "pageindex-core", "pageindex-retriever", "pageindex-store"],
      {
        cwd: lean.dir,
        timeout: 170_000,
      },
    );
    expect(Object.keys(JSON.parse(stdout.trim())).sort()).toEqual([
      "pageindex-core",
      "pageindex-core/errors",
      "pageindex-retriever",
      "pageindex-retriever/eval",
      "pageindex-store",
    ]);
  }, 600_000);

  it("says how to install redis or pg, optional peers, when the Redis or PostgreSQL store is asked for without it", async () => {
    const script = `require("pageindex-store").PageIndexStore.fromRedis("redis://127.0.0.1:1")
      .then(() => process.exit(2), (error) => { console.log(error.message); });`;
    const { stdout } = await exec(process.execPath, ["-e", script], { cwd: alone.dir, timeout: 170_000 });
    expect(stdout).toMatch(/needs the "redis" package.*npm install redis@5/);
    const postgres = `require("pageindex-store").openPostgresStore("postgres://u:pw@127.0.0.1:1/db")
      .then(() => process.exit(2), (error) => { console.log(error.message); });`;
    const pgRun = await exec(process.execPath, ["-e", postgres], { cwd: alone.dir, timeout: 170_000 });
    expect(pgRun.stdout).toMatch(/needs the "pg" package.*npm install pg@8/);
  }, 600_000);

  it("type-checks against the installed .d.ts files (NodeNext, strict)", async () => {
    await writeFile(join(project, "typed.mts"), TYPED);
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
    await exec(process.execPath, [tsc, ...args, "--target", "es2022", "--skipLibCheck", "typed.mts"], {
      cwd: project,
      timeout: 300_000,
    });
  }, 600_000);
});
