/**
 * The library dev set: its files, their trees (built offline as `pageindex index` builds them,
 * cached as JSON) and one folder store holding them all (cached, keyed by the files and the
 * store and retriever code, so a change to either indexes again).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TreeDocument } from "pageindex-core";
import { PageIndexLoader } from "pageindex-loader";
import { LexicalIndexes } from "pageindex-retriever";
import { openPostgresStore, PageIndexStore } from "pageindex-store";
import { DEBIAN_CACHE, debianFileBytes, excludedPackage } from "../debian-docs.js";
import { HOLDOUT } from "../devset.js";
import { dropPostgresSchema } from "../drop-postgres-schema.js";
import { docIdOf } from "../tree-cache.js";
import { LIBRARY_FILES } from "./files.js";

/** One document of the library. */
export interface LibraryFile {
  pkg: string;
  /** Path inside the package. */
  path: string;
  kind: "pdf" | "markdown";
  /** `package/file` (the parent folder too when the package has two files of that name). */
  docName: string;
  docId: string;
}

/** Every file of the library, in a fixed order; throws for a held-out package. */
export function libraryFiles(): LibraryFile[] {
  const held = new Set(HOLDOUT.map((d) => `${d.pkg}/${d.path}`));
  const out: LibraryFile[] = [];
  for (const [pkg, paths] of Object.entries(LIBRARY_FILES)) {
    if (excludedPackage(pkg)) throw new Error(`${pkg} is held out of the evaluations`);
    const heldFile = paths.find((p) => held.has(`${pkg}/${p}`));
    if (heldFile) throw new Error(`${pkg}/${heldFile} is held out of the evaluations (scripts/devset.ts)`);
    const names = paths.map((p) => basename(p).replace(/\.gz$/, ""));
    paths.forEach((path, i) => {
      const name = names[i] as string;
      const twin = names.filter((n) => n === name).length > 1;
      const docName = `${pkg}/${twin ? `${basename(dirname(path))}/` : ""}${name}`;
      out.push({
        pkg,
        path,
        kind: /\.pdf$/i.test(name) ? "pdf" : "markdown",
        docName,
        docId: docIdOf(docName.replaceAll("/", "__")),
      });
    });
  }
  return out;
}

/** One question of questions.json. */
export interface LibraryQuestion {
  id: string;
  question: string;
  docId: string;
  /** `package/path` of the document. */
  file: string;
  /** Gold pages (PDF) or an inclusive line range (Markdown). */
  gold: { pages: number[] } | { lines: [number, number] };
  difficulty: "hard" | "easy";
  /** `holdout`: run by the lead only, once per session at its end (never tuned on, never in `--split all`). */
  split: "dev" | "validation" | "holdout";
  /** Title path of the section the question was written from (never shown to the retriever). */
  section: string;
}

/**
 * Whether a question belongs to the split a `--split` argument names. `all` is dev + validation,
 * as it was before the holdout questions were written, so earlier numbers stay comparable; the
 * holdout split is only ever asked for by name (the lead's one run a session).
 */
export function inSplit(q: LibraryQuestion, split: string): boolean {
  return split === "all" ? q.split !== "holdout" : q.split === split;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const TREES = join(DEBIAN_CACHE, "library-trees");
/**
 * A commit whose loader built the cached trees to read (`LIBRARY_TREES_AT`): a question batch is
 * drawn and written on trees already built when the loader has changed since (sample.ts,
 * make-questions.ts). Such trees are only read, never built: a tree built by today's loader
 * must not be cached under an older commit's key.
 */
const TREES_AT = process.env.LIBRARY_TREES_AT;
/** The loader and core code a tree was built with (committed; `rebuild` after uncommitted changes). */
const treeCode = codeVersion(TREES_AT ?? "HEAD", "pageindex-loader", "pageindex-core");

function treeCacheFile(file: LibraryFile, bytes: Uint8Array): string {
  const key = createHash("sha1").update(bytes).update(file.docId).update(treeCode).digest("hex").slice(0, 12);
  return join(TREES, `${file.docId}-${key}.json`);
}

/** Whether the file's tree is in the cache already. */
export function libraryTreeCached(file: LibraryFile): boolean {
  const bytes = debianFileBytes(file);
  return bytes !== undefined && existsSync(treeCacheFile(file, bytes));
}

/** The file's tree, built offline with extractive summaries and a description (as the CLI indexes), cached by its bytes. */
export async function libraryTree(file: LibraryFile, rebuild = false): Promise<TreeDocument | undefined> {
  const bytes = debianFileBytes(file);
  if (!bytes) return undefined;
  const cached = treeCacheFile(file, bytes);
  if ((!rebuild || TREES_AT) && existsSync(cached))
    return JSON.parse(readFileSync(cached, "utf8")) as TreeDocument;
  if (TREES_AT)
    throw new Error(`${file.docId}: no tree cached for the loader of ${TREES_AT} (LIBRARY_TREES_AT)`);
  const name = basename(file.path).replace(/\.gz$/, "");
  const common = {
    docId: file.docId,
    docName: file.docName,
    source: `${file.pkg}/${file.path}`,
    description: true,
  };
  const tree = await new PageIndexLoader(new File([bytes], name), {
    markdown: common,
    pdf: common,
  }).loadTree();
  mkdirSync(TREES, { recursive: true });
  writeFileSync(`${cached}.tmp`, JSON.stringify(tree));
  renameSync(`${cached}.tmp`, cached);
  return tree;
}

/** Trees of the library: cached ones read, missing ones built (two at a time); failures reported and skipped. */
export async function libraryTrees(
  files: readonly LibraryFile[],
  rebuild = false,
  log: (line: string) => void = console.log,
): Promise<TreeDocument[]> {
  const trees: Array<TreeDocument | undefined> = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const file = files[i] as LibraryFile;
      const started = Date.now();
      try {
        trees[i] = await libraryTree(file, rebuild);
        const ms = Date.now() - started;
        if (ms > 2000)
          log(`built ${file.docName}: ${trees[i]?.nodes.length} nodes (${(ms / 1000).toFixed(1)} s)`);
      } catch (error) {
        log(`skipped ${file.docName}: ${(error as Error).message.split("\n")[0]}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  return trees.filter((t): t is TreeDocument => t !== undefined);
}

/** The committed git trees of `packages/<name>` at `commit`: cached results are reused only with the same code. */
function codeVersion(commit: string, ...names: string[]): string {
  try {
    return execFileSync("git", ["rev-parse", ...names.map((n) => `${commit}:packages/${n}`)], {
      cwd: ROOT,
      encoding: "utf8",
    }).replace(/\s+/g, "");
  } catch {
    return "unknown";
  }
}

/**
 * The folder store holding every tree, with each document's lexical index saved as
 * `pageindex index` saves it. Reused when the same trees were stored by the same code
 * (committed code: pass `rebuild` after changing the packages without committing).
 */
export async function libraryStore(
  trees: readonly TreeDocument[],
  rebuild = false,
  log: (line: string) => void = console.log,
): Promise<{ store: PageIndexStore; dir: string; built: boolean; ms: number }> {
  const key = createHash("sha1")
    .update(codeVersion("HEAD", "pageindex-store", "pageindex-retriever"))
    .update(trees.map((t) => `${t.docId}:${t.nodes.length}:${t.pageCount ?? t.lineCount ?? 0}`).join("|"))
    .digest("hex")
    .slice(0, 12);
  const dir = join(DEBIAN_CACHE, `library-store-${key}`);
  const done = join(dir, ".complete");
  const started = performance.now();
  if (!rebuild && existsSync(done)) {
    return { store: await PageIndexStore.fromPath(dir), dir, built: false, ms: performance.now() - started };
  }
  rmSync(dir, { recursive: true, force: true });
  const store = await PageIndexStore.fromPath(dir);
  const lexical = new LexicalIndexes(store);
  for (const [i, tree] of trees.entries()) {
    await store.addTree(tree);
    await lexical.get(await store.getSkeleton(tree.docId));
    if ((i + 1) % 50 === 0) log(`stored ${i + 1}/${trees.length} documents`);
  }
  writeFileSync(done, `${new Date().toISOString()}\n`);
  return { store, dir, built: true, ms: performance.now() - started };
}

/** The byte-store key marking a PostgreSQL dev library as completely stored (its value: the trees' key). */
const POSTGRES_MARKER = "eval-library-complete";

/**
 * The library in a PostgreSQL store (schema `schema` at `url`; the trees and the library index
 * in one database), kept while its trees are the same (a marker key names them), else emptied
 * and stored again through the same write path as the folder store. `championRows` gives the
 * library index champion lists (built from the stored rows on open when it has none).
 */
export async function libraryPostgresStore(
  trees: readonly TreeDocument[],
  url: string,
  options: { schema: string; rebuild?: boolean; championRows?: number },
  log: (line: string) => void = console.log,
): Promise<{ store: PageIndexStore; dir: string; built: boolean; ms: number }> {
  const key = createHash("sha1")
    .update(trees.map((t) => `${t.docId}:${t.nodes.length}:${t.pageCount ?? t.lineCount ?? 0}`).join("|"))
    .digest("hex")
    .slice(0, 12);
  const where = `${url.replace(/:[^:@/]*@/, ":***@")} schema ${options.schema}`;
  const started = performance.now();
  const open = () =>
    openPostgresStore(url, {
      schema: options.schema,
      commandTimeoutMs: 0,
      ...(options.championRows !== undefined ? { championRows: options.championRows } : {}),
    });
  let store = await open();
  const [marker] = await store.byteStore.mget([POSTGRES_MARKER]);
  if (!options.rebuild && marker && new TextDecoder().decode(marker) === key)
    return { store, dir: where, built: false, ms: performance.now() - started };
  // Another set of trees: start from an empty schema.
  await store.close();
  await dropPostgresSchema(url, options.schema);
  store = await open();
  const lexical = new LexicalIndexes(store);
  for (const [i, tree] of trees.entries()) {
    await store.addTree(tree);
    await lexical.get(await store.getSkeleton(tree.docId));
    if ((i + 1) % 50 === 0) log(`stored ${i + 1}/${trees.length} documents in PostgreSQL`);
  }
  await store.byteStore.mset([[POSTGRES_MARKER, new TextEncoder().encode(key)]]);
  return { store, dir: where, built: true, ms: performance.now() - started };
}
