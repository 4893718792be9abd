import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { fromPageIndexJson, oneLine, renderToc, type TreeDocument, toPageIndexJson } from "pageindex-core";
import type { CliContext } from "../context.js";
import { resolveDocId, resolveDocIds, type StoredState, storedState } from "../doc-ids.js";
import { CliError, EXIT, plural, printable, printJson } from "../output.js";
import { saveLexicalIndex } from "./index-files.js";

/** `pageindex list`: every document (or one page of them) with its size and description. */
export async function listDocuments(
  ctx: CliContext,
  page: { limit?: number; offset?: number } = {},
): Promise<number> {
  const store = await ctx.store();
  const paged =
    page.limit !== undefined || page.offset !== undefined
      ? await store.listDocuments({ limit: page.limit ?? 50, offset: page.offset ?? 0 })
      : undefined;
  const docs = paged ? paged.documents : await store.listDocuments();
  if (ctx.options.json) {
    printJson(ctx.io, paged ?? { documents: docs });
    return EXIT.ok;
  }
  if (paged && docs.length > 0) {
    ctx.io.out(`Documents ${paged.offset + 1}-${paged.offset + docs.length} of ${paged.total}:`);
  }
  if (docs.length === 0) {
    if (paged && paged.total > 0) {
      ctx.io.out(`No documents at offset ${paged.offset} (${paged.total} in all).`);
      return EXIT.ok;
    }
    ctx.io.out("The store is empty. Index documents with: pageindex index <files or folders>");
    return EXIT.ok;
  }
  for (const doc of docs) {
    const size =
      doc.pageCount !== undefined ? plural(doc.pageCount, "page") : plural(doc.lineCount ?? 0, "line");
    const sections = plural(doc.nodeCount, "section");
    ctx.io.out(`${printable(doc.docId)}  (${doc.kind}, ${size}, ${sections}, built ${doc.createdAt})`);
    if (doc.description) ctx.io.out(`    ${oneLine(doc.description)}`);
  }
  return EXIT.ok;
}

/** Options of `pageindex tree`. */
export interface TreeCommandOptions {
  format?: "text" | "json" | "pageindex";
  depth?: number;
  summaries?: boolean;
}

/** `pageindex tree <doc>`: the table of contents, as text, our JSON, or PageIndex JSON. */
export async function showTree(ctx: CliContext, ref: string, options: TreeCommandOptions): Promise<number> {
  const format = options.format ?? (ctx.options.json ? "json" : "text");
  if (!["text", "json", "pageindex"].includes(format)) {
    throw new CliError(`--format must be text, json or pageindex (got "${format}")`);
  }
  // A script that passes --json parses stdout: text there would break it without a word.
  if (format === "text" && ctx.options.json) {
    throw new CliError("--json prints JSON: use --format json or pageindex with it, not --format text");
  }
  const store = await ctx.store();
  const docId = await resolveDocId(store, ref);
  if (format === "text") {
    const skeleton = await store.getSkeleton(docId);
    // Names and the description are data: each stays on its one line.
    ctx.io.out(
      `${printable(skeleton.docName)} (${printable(skeleton.docId)}; structure from ${printable(skeleton.build.structure)})`,
    );
    if (skeleton.description) ctx.io.out(oneLine(skeleton.description));
    ctx.io.out(
      renderToc(skeleton, {
        summaries: options.summaries ?? false,
        ...(options.depth !== undefined ? { maxDepth: options.depth } : {}),
      }),
    );
    return EXIT.ok;
  }
  if (format === "pageindex") {
    printJson(ctx.io, toPageIndexJson(await store.getTree(docId)));
    return EXIT.ok;
  }
  printJson(ctx.io, await store.getSkeleton(docId));
  return EXIT.ok;
}

/**
 * `pageindex import <file.json…>`: PageIndex (Python) trees into the store, all or nothing: every
 * file is read, validated and checked against the store before the first one is written.
 */
export async function importTrees(
  ctx: CliContext,
  files: string[],
  options: { docId?: string; force?: boolean },
): Promise<number> {
  if (options.docId && files.length > 1) throw new CliError("--doc-id can only be used with a single file");
  const store = await ctx.store();
  const planned: Array<{ file: string; tree: TreeDocument; existing: StoredState }> = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      throw new CliError(`No such file: ${file}`);
    }
    const source = resolve(file);
    const tree = fromPageIndexJson(text, {
      source,
      ...(options.docId ? { docId: options.docId } : {}),
      docName: basename(file).replace(/_structure\.json$|\.json$/i, ""),
    });
    const existing = await storedState(store, tree.docId);
    // Re-importing the same file replaces it; another file's document needs --force.
    if (
      existing.status === "stored" &&
      ![source, file].includes(existing.info.source ?? "") &&
      !options.force
    ) {
      throw new CliError(
        `Document "${tree.docId}" is already in the store from ${existing.info.source ?? "another source"}: ` +
          `not replaced by ${file} (use --force to replace it, or --doc-id to import under another id)`,
      );
    }
    planned.push({ file, tree, existing });
  }
  const results: Array<{ file: string; docId: string; nodes: number }> = [];
  for (const { file, tree, existing } of planned) {
    await store.addTree(tree);
    await saveLexicalIndex(store, tree.docId);
    results.push({ file, docId: tree.docId, nodes: tree.nodes.length });
    if (!ctx.options.json) {
      const replaced = existing.status === "unreadable" ? " (replacing an unreadable stored copy)" : "";
      ctx.io.out(
        `${printable(basename(file))}: imported as "${tree.docId}" (${plural(tree.nodes.length, "section")})${replaced}`,
      );
    }
  }
  if (ctx.options.json) printJson(ctx.io, { imported: results });
  return EXIT.ok;
}

/**
 * `pageindex rm <doc…>`: deletes documents, all or nothing: every reference is resolved (exact
 * id, name or source path) before the first deletion.
 */
export async function removeDocuments(ctx: CliContext, refs: string[]): Promise<number> {
  const store = await ctx.store();
  const docIds = await resolveDocIds(store, refs);
  const removed: string[] = [];
  for (const docId of docIds) {
    await store.deleteDocument(docId);
    removed.push(docId);
    if (!ctx.options.json) ctx.io.out(`removed ${docId}`);
  }
  if (ctx.options.json) printJson(ctx.io, { removed });
  return EXIT.ok;
}
