import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The consumer's view: the packages packed as they would be published (`pnpm pack` turns
 * `workspace:*` into versions), installed with plain npm into an empty project, and used from
 * there by `import`, by `require()` and by TypeScript against the installed `.d.ts` files.
 * Needs the npm registry for the packages' dependencies; skipped, saying so, when it is not
 * reachable.
 */
const exec = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["pageindex-store", "pageindex-loader", "pageindex-retriever"];
const CORE_VERSION = "1.2.18";

async function registryReachable(): Promise<boolean> {
  try {
    await exec("npm", ["ping", "--loglevel=error"], { timeout: 20_000 });
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

const TYPED = `import { PageIndexStore, type TreeDocument } from "pageindex-store";
import { MarkdownTreeLoader } from "pageindex-loader";
import { PageIndexRetriever, type PageIndexDocumentMetadata } from "pageindex-retriever";
import type { Document } from "@langchain/core/documents";

export async function search(dir: string, file: string): Promise<Document<PageIndexDocumentMetadata>[]> {
  const store = await PageIndexStore.fromPath(dir);
  const tree: TreeDocument = await new MarkdownTreeLoader(file).loadTree();
  await store.addTree(tree);
  const docs = await new PageIndexRetriever({ reader: store, k: 2 }).invoke("tines");
  const page: number | undefined = docs[0]?.metadata.startPage;
  const title: string | undefined = docs[0]?.metadata.title;
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

describe.skipIf(!online)("packed packages installed with npm in an empty project", () => {
  let project = "";
  let tarballs: string[] = [];
  const extraDirs: string[] = [];

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "pageindex-consumer-"));
    const packs = join(project, "packs");
    await mkdir(packs);
    for (const name of PACKAGES) {
      await exec("pnpm", ["pack", "--pack-destination", packs], { cwd: join(root, "packages", name) });
    }
    tarballs = (await readdir(packs)).filter((f) => f.endsWith(".tgz"));
    const dependencies: Record<string, string> = { "@langchain/core": CORE_VERSION };
    for (const name of PACKAGES) {
      const file = tarballs.find((f) => f.startsWith(`${name}-`));
      if (file) dependencies[name] = `file:packs/${file}`;
    }
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, dependencies }, null, 2),
    );
    await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: project,
      timeout: 480_000,
    });
    await writeFile(join(project, "manual.md"), MANUAL);
  }, 600_000);

  afterAll(async () => {
    for (const dir of [project, ...extraDirs]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("every tarball carries its LICENSE and README", async () => {
    expect(tarballs).toHaveLength(PACKAGES.length);
    for (const file of tarballs) {
      const { stdout } = await exec("tar", ["-tzf", join(project, "packs", file)]);
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
        timeout: 120_000,
      });
      expect(JSON.parse(stdout.trim())).toEqual(EXPECTED);
    }, 150_000);
  }

  it("says how to install redis, an optional peer, when the Redis store is asked for without it", async () => {
    // A project with the store alone (the CLI's package depends on redis itself).
    // Outside the main project: Node would find its node_modules/redis from a subfolder.
    const alone = await mkdtemp(join(tmpdir(), "pageindex-consumer-store-"));
    extraDirs.push(alone);
    const store = tarballs.find((f) => f.startsWith("pageindex-store-")) as string;
    const dependencies = {
      "@langchain/core": CORE_VERSION,
      "pageindex-store": `file:${join(project, "packs", store)}`,
    };
    await writeFile(
      join(alone, "package.json"),
      JSON.stringify({ name: "alone", private: true, dependencies }),
    );
    await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: alone,
      timeout: 240_000,
    });
    const script = `require("pageindex-store").PageIndexStore.fromRedis("redis://127.0.0.1:1")
      .then(() => process.exit(2), (error) => { console.log(error.message); });`;
    const { stdout } = await exec(process.execPath, ["-e", script], { cwd: alone, timeout: 60_000 });
    expect(stdout).toMatch(/needs the "redis" package.*npm install redis@5/);
  }, 300_000);

  it("type-checks against the installed .d.ts files (NodeNext, strict)", async () => {
    await writeFile(join(project, "typed.mts"), TYPED);
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
    await exec(process.execPath, [tsc, ...args, "--target", "es2022", "--skipLibCheck", "typed.mts"], {
      cwd: project,
      timeout: 120_000,
    });
  }, 150_000);
});
