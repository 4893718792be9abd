/**
 * Every (namespace, document id) pair the store accepts must give file names of at most 255
 * bytes in both file-backed byte stores, temp files included: LangChain's LocalFileStore
 * writes `<key>.txt.<ms>-<hex>.tmp`, 36 bytes longer than the key.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseStore } from "@langchain/core/stores";
import { LocalFileStore } from "langchain/storage/file_system";
import { InvalidIdError, toDocId } from "pageindex-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileByteStore, PageIndexStore } from "../src/index.js";
import { KeyLayout, MAX_STORE_DOC_ID_LENGTH, maxDocIdLength, newVersionId } from "../src/store/keys.js";
import { makeTree } from "./helpers/trees.js";

const LONGEST_NAMESPACE = "n".repeat(40);
const backends: Array<[string, (dir: string) => Promise<BaseStore<string, Uint8Array>>]> = [
  ["LangChain LocalFileStore", (dir) => LocalFileStore.fromPath(dir)],
  ["FileByteStore", (dir) => FileByteStore.fromPath(dir)],
];

describe.each(backends)("key length on %s", (_name, open) => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-keylen-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const namespace of ["pageindex", LONGEST_NAMESPACE]) {
    it(`stores, reads and deletes a document with the longest id under namespace of ${namespace.length}`, async () => {
      const byteStore = await open(dir);
      const store = new PageIndexStore(byteStore, { namespace, chunkChars: 500 });
      const docId = "d".repeat(maxDocIdLength(namespace));
      const tree = makeTree(docId, { nodes: 20 });
      await store.addTree(tree);
      await store.putDerived(docId, "x".repeat(24), new Uint8Array([1]));
      expect(await new PageIndexStore(await open(dir), { namespace }).getTree(docId)).toEqual(tree);
      const names = await readdir(dir);
      expect(Math.max(...names.map((name) => Buffer.byteLength(name)))).toBeLessThanOrEqual(255);

      // The longest key the layout can produce: a text chunk with a 9-digit number.
      const longestText = new KeyLayout(namespace).text(docId, newVersionId(), 999_999_999);
      await byteStore.mset([[longestText, new Uint8Array([1])]]);
      await byteStore.mdelete([longestText]);
      expect(await store.deleteDocument(docId)).toBe(true);
    });

    it(`rejects a longer id under namespace of ${namespace.length} with a clear error`, async () => {
      const store = new PageIndexStore(await open(dir), { namespace });
      const docId = "d".repeat(maxDocIdLength(namespace) + 1);
      const error = await store.addTree(makeTree(docId, { nodes: 2 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidIdError);
      expect((error as Error).message).toContain(
        `${docId.length} characters, more than the ${docId.length - 1} allowed under namespace "${namespace}"`,
      );
    });
  }
});

it("every id toDocId derives fits under the longest namespace", () => {
  expect(MAX_STORE_DOC_ID_LENGTH).toBe(maxDocIdLength(LONGEST_NAMESPACE));
  expect(toDocId(`${"x".repeat(400)}.pdf`).length).toBeLessThanOrEqual(MAX_STORE_DOC_ID_LENGTH);
});
