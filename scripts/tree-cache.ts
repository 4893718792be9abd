import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { TreeDocument } from "pageindex-core";
import { PdfTreeLoader } from "pageindex-loader";

/** A safe document id from a file stem ("Regulation Best Interest_…" has spaces). */
export function docIdOf(stem: string): string {
  return stem.replace(/[^A-Za-z0-9_.-]+/g, "_");
}

/**
 * Builds the tree of a PDF offline (outline/layout structure, extractive summaries and
 * description), or reads it from a JSON cache in the OS temp folder `cacheName` (keyed by the
 * file's path, size and time; `rebuild` to redo it).
 */
export async function cachedPdfTree(pdf: string, cacheName: string, rebuild = false): Promise<TreeDocument> {
  const stat = statSync(pdf);
  const key = createHash("sha1")
    .update(`${resolve(pdf)}|${stat.size}|${stat.mtimeMs}`)
    .digest("hex")
    .slice(0, 12);
  const dir = join(tmpdir(), cacheName);
  const file = join(dir, `${basename(pdf, ".pdf").replace(/\W+/g, "_")}-${key}.json`);
  if (!rebuild && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as TreeDocument;
  const started = Date.now();
  const tree = await new PdfTreeLoader(pdf, {
    docId: docIdOf(basename(pdf, ".pdf")),
    description: true,
  }).loadTree();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(tree));
  console.log(
    `built ${tree.docId}: ${tree.nodes.length} nodes, ${tree.pageCount} pages, structure ${tree.build.structure} (${Date.now() - started} ms)`,
  );
  return tree;
}
