import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { fromPageIndexJson, renderToc, toDocId, toPageIndexJson } from "pageindex-store";
import type { CliContext } from "../context.js";
import { CliError, EXIT, printJson } from "../output.js";

/** `pageindex list`: every document with its size and description. */
export async function listDocuments(ctx: CliContext): Promise<number> {
  const docs = await (await ctx.store()).listDocuments();
  if (ctx.options.json) {
    printJson(ctx.io, { documents: docs });
    return EXIT.ok;
  }
  if (docs.length === 0) {
    ctx.io.out("The store is empty. Index documents with: pageindex index <files or folders>");
    return EXIT.ok;
  }
  for (const doc of docs) {
    const size = doc.pageCount !== undefined ? `${doc.pageCount} pages` : `${doc.lineCount ?? 0} lines`;
    ctx.io.out(`${doc.docId}  (${doc.kind}, ${size}, ${doc.nodeCount} sections, built ${doc.createdAt})`);
    if (doc.description) ctx.io.out(`    ${doc.description}`);
  }
  return EXIT.ok;
}

/** Resolves a document given by id or by name (exact, then case-insensitive contains). */
export async function resolveDocId(ctx: CliContext, ref: string): Promise<string> {
  const store = await ctx.store();
  const asId = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(ref) ? ref : toDocId(ref);
  if (await store.hasDocument(asId)) return asId;
  const byName = await store.findDocuments({ name: ref, match: "contains" });
  if (byName.length === 1) return (byName[0] as { docId: string }).docId;
  if (byName.length > 1) {
    throw new CliError(`"${ref}" matches several documents: ${byName.map((d) => d.docId).join(", ")}`);
  }
  throw new CliError(`No document "${ref}" in the store (see: pageindex list)`);
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
  const store = await ctx.store();
  const docId = await resolveDocId(ctx, ref);
  if (format === "text") {
    const skeleton = await store.getSkeleton(docId);
    ctx.io.out(`${skeleton.docName} (${skeleton.docId}; structure from ${skeleton.build.structure})`);
    if (skeleton.description) ctx.io.out(skeleton.description);
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

/** `pageindex import <file.json…>`: PageIndex (Python) trees into the store. */
export async function importTrees(
  ctx: CliContext,
  files: string[],
  options: { docId?: string },
): Promise<number> {
  if (options.docId && files.length > 1) throw new CliError("--doc-id can only be used with a single file");
  const store = await ctx.store();
  const results: Array<{ file: string; docId: string; nodes: number }> = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      throw new CliError(`No such file: ${file}`);
    }
    const tree = fromPageIndexJson(text, {
      source: file,
      ...(options.docId ? { docId: options.docId } : {}),
      docName: basename(file).replace(/_structure\.json$|\.json$/i, ""),
    });
    await store.addTree(tree);
    results.push({ file, docId: tree.docId, nodes: tree.nodes.length });
    if (!ctx.options.json)
      ctx.io.out(`${basename(file)}: imported as "${tree.docId}" (${tree.nodes.length} sections)`);
  }
  if (ctx.options.json) printJson(ctx.io, { imported: results });
  return EXIT.ok;
}

/** `pageindex rm <doc…>`: deletes documents. */
export async function removeDocuments(ctx: CliContext, refs: string[]): Promise<number> {
  const store = await ctx.store();
  const removed: string[] = [];
  for (const ref of refs) {
    const docId = await resolveDocId(ctx, ref);
    await store.deleteDocument(docId);
    removed.push(docId);
    if (!ctx.options.json) ctx.io.out(`removed ${docId}`);
  }
  if (ctx.options.json) printJson(ctx.io, { removed });
  return EXIT.ok;
}
