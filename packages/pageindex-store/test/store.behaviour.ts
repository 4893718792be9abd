/**
 * The behaviour every backend of PageIndexStore must show. Each `*.test.ts` of a backend
 * calls {@link describeStoreBehaviour} with a function opening that backend on a fresh location.
 */
import type { BaseStore } from "@langchain/core/stores";
import {
  DocumentNotFoundError,
  InvalidIdError,
  type SkeletonNode,
  type TreeDocument,
  TreeValidationError,
  toSkeleton,
} from "pageindex-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DocumentIdConflictError,
  hasCreateIfAbsent,
  PageIndexStore,
  type PageIndexStoreOptions,
  StoreCorruptionError,
  StoreVersionError,
} from "../src/index.js";
import { sha256 } from "../src/store/codec.js";
import { maxDocIdLength } from "../src/store/keys.js";
import { catalogBehaviour } from "./catalog.behaviour.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

type ByteStore = BaseStore<string, Uint8Array>;

/** One backend opened on a fresh, empty location. */
export interface Backend {
  byteStore: ByteStore;
  /** Another handle on the same location, as a second process would open it. */
  reopen(): Promise<ByteStore>;
  cleanup(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const json = (value: unknown) => encoder.encode(JSON.stringify(value));

async function readJson(store: ByteStore, key: string): Promise<Record<string, unknown>> {
  const [raw] = await store.mget([key]);
  if (!raw) throw new Error(`test setup: no value at ${key}`);
  return JSON.parse(decoder.decode(raw)) as Record<string, unknown>;
}

/**
 * Rewrites a stored JSON value as a buggy writer would: the checksums that cover it (in the
 * skeleton for a text chunk, in the head for the skeleton) are updated to match, so only the
 * reader's own validation can catch the problem.
 */
async function rewriteConsistently(
  store: ByteStore,
  docId: string,
  key: string,
  mutate: (value: Record<string, unknown>) => void,
): Promise<void> {
  const value = await readJson(store, key);
  mutate(value);
  const bytes = json(value);
  await store.mset([[key, bytes]]);
  const headKey = `pageindex.head.${docId}`;
  const head = await readJson(store, headKey);
  let skeletonBytes = bytes;
  const chunk = /\.text\.(\d+)$/.exec(key);
  if (chunk) {
    const skeletonKey = `pageindex.doc.${docId}.v.${head.versionId as string}.skeleton`;
    const skeleton = await readJson(store, skeletonKey);
    (skeleton.chunkSha256 as string[])[Number(chunk[1])] = sha256(bytes);
    skeletonBytes = json(skeleton);
    await store.mset([[skeletonKey, skeletonBytes]]);
  }
  await store.mset([[headKey, json({ ...head, skeletonSha256: sha256(skeletonBytes) })]]);
}

/** Runs the suite; `defaults` are passed to every PageIndexStore it creates. */
export function describeStoreBehaviour(
  name: string,
  open: () => Promise<Backend>,
  skip = false,
  defaults: PageIndexStoreOptions = {},
): void {
  const label = defaults.verifyOnRead ? `${name}, verifyOnRead "${defaults.verifyOnRead}"` : name;
  describe.skipIf(skip)(`PageIndexStore behaviour on ${label}`, () => {
    let backend: Backend;
    let problems: Error[];
    const storeOn = (byteStore: ByteStore, options: PageIndexStoreOptions = {}) =>
      new PageIndexStore(byteStore, { onProblem: (p) => problems.push(p), ...defaults, ...options });

    beforeEach(async () => {
      backend = await open();
      problems = [];
    });
    afterEach(async () => {
      await backend.cleanup();
    });

    describe("corpus catalog", () => {
      catalogBehaviour({
        byteStore: () => backend.byteStore,
        reopen: () => backend.reopen(),
        storeOn,
      });
    });

    describe("round trip", () => {
      it("stores a tree and lists it with its description, page/line count and build time", async () => {
        const store = storeOn(backend.byteStore);
        const tree = makeTree("annual-report", {
          description: "FY2024 annual report",
          source: "/docs/ar.md",
        });
        const info = await store.addTree(tree);
        expect(info).toEqual({
          docId: "annual-report",
          docName: "annual-report.md",
          kind: "markdown",
          description: "FY2024 annual report",
          source: "/docs/ar.md",
          lineCount: 30,
          nodeCount: 30,
          createdAt: "2025-01-02T03:04:05.000Z",
        });
        expect(await store.listDocuments()).toEqual([info]);
        expect(await store.getDocumentInfo("annual-report")).toEqual(info);
        expect(await store.hasDocument("annual-report")).toBe(true);
        expect(await store.hasDocument("other")).toBe(false);
      });

      it("returns the skeleton without texts, the whole tree and whole nodes", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 1000 });
        const tree = makeTree("doc", { nodes: 60, textChars: 300 });
        await store.addTree(tree);
        const fresh = storeOn(await backend.reopen());
        const skeleton = await fresh.getSkeleton("doc");
        expect(skeleton).toEqual(toSkeleton(tree));
        expect(skeleton.nodes.every((node) => !("text" in node))).toBe(true);
        expect(await fresh.getTree("doc")).toEqual(tree);
        const nodes = await fresh.getNodes("doc", ["0042", "nope", "0001"]);
        expect(nodes).toEqual([tree.nodes[42], tree.nodes[1]]);
      });

      it("returns the texts of the nodes asked for; unknown ids are absent", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 500 });
        const tree = makeTree("doc", { nodes: 40 });
        await store.addTree(tree);
        const texts = await storeOn(await backend.reopen()).getNodeTexts("doc", ["0003", "0039", "missing"]);
        expect([...texts.keys()].sort()).toEqual(["0003", "0039"]);
        expect(texts.get("0003")).toBe(tree.nodes[3]?.text);
        expect(texts.get("0039")).toBe(tree.nodes[39]?.text);
        expect((await store.getNodeTexts("doc", [])).size).toBe(0);
      });

      it("reads the skeleton and only the chunks holding the selected nodes, never every text", async () => {
        await storeOn(backend.byteStore, { chunkChars: 1000 }).addTree(
          makeTree("doc", { nodes: 200, textChars: 250 }),
        );
        const recording = new WrappedStore(await backend.reopen());
        const store = storeOn(recording);
        const textKeys = (await allKeys(recording, "pageindex.doc.doc.v.")).filter((k) =>
          k.includes(".text."),
        );
        expect(textKeys.length).toBeGreaterThan(40);

        await store.getSkeleton("doc");
        expect(recording.reads.filter((k) => k.includes(".text."))).toEqual([]);
        recording.reads.length = 0;
        await store.getSkeleton("doc"); // warm: only the head is read again
        expect(recording.reads).toEqual(["pageindex.head.doc"]);

        recording.reads.length = 0;
        const texts = await store.getNodeTexts("doc", ["0010", "0011", "0150"]);
        expect(texts.size).toBe(3);
        const read = recording.reads.filter((k) => k.includes(".text."));
        expect(read.length).toBeGreaterThanOrEqual(1);
        expect(read.length).toBeLessThanOrEqual(3);
        expect(recording.reads.some((k) => k.endsWith(".skeleton"))).toBe(false);
      });

      it("returns a deeply frozen skeleton, so one caller's edit cannot corrupt later reads", async () => {
        const tree = { ...makeTree("doc", { nodes: 8 }), metadata: { frontMatter: { tags: ["a"] } } };
        const writer = storeOn(backend.byteStore);
        await writer.addTree(tree);
        expect(Object.isFrozen(tree.nodes[0]) || Object.isFrozen(tree.metadata.frontMatter)).toBe(false);
        for (const store of [writer, storeOn(await backend.reopen())]) {
          const skeleton = await store.getSkeleton("doc");
          const node = skeleton.nodes[1] as SkeletonNode;
          expect(() => {
            node.title = "changed";
          }).toThrow(TypeError);
          expect(() => node.childIds.push("9999")).toThrow(TypeError);
          expect(() => skeleton.nodes.pop()).toThrow(TypeError);
          const { tags } = (skeleton.metadata as { frontMatter: { tags: string[] } }).frontMatter;
          expect(tags).toEqual(["a"]);
          expect(() => {
            tags[0] = "b";
          }).toThrow(TypeError);
          expect(() => {
            skeleton.build.loader = "changed";
          }).toThrow(TypeError);
          expect(await store.getSkeleton("doc")).toEqual(toSkeleton(tree));
          // Whole trees and nodes are the caller's copies to edit.
          const copy = await store.getTree("doc");
          copy.nodes[0]?.childIds.push("9999");
          (await store.getNodes("doc", ["0001"]))[0]?.childIds.push("9999");
          expect(await store.getTree("doc")).toEqual(tree);
        }
      });

      it("stores a tree without nodes", async () => {
        const store = storeOn(backend.byteStore);
        const tree = makeTree("empty", { nodes: 0 });
        await store.addTree(tree);
        expect(await store.getTree("empty")).toEqual(tree);
        expect((await store.getNodeTexts("empty", ["0000"])).size).toBe(0);
      });

      it("keeps documents whose ids share a prefix or contain dots apart", async () => {
        const store = storeOn(backend.byteStore);
        const ids = ["report", "report.pdf", "report.v.000000000-00000000", "r"];
        for (const [i, id] of ids.entries()) await store.addTree(makeTree(id, { nodes: 5, seed: i + 1 }));
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual([...ids].sort());
        expect(await store.deleteDocument("report")).toBe(true);
        expect(await store.vacuum({ graceMs: 0 })).toMatchObject({ deletedKeys: 0, foreignKeys: [] });
        for (const [i, id] of ids.entries()) {
          if (id === "report") continue;
          expect(await store.getTree(id)).toEqual(makeTree(id, { nodes: 5, seed: i + 1 }));
        }
        expect(await store.removeOrphans("report", 0)).toBe(0);
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual([
          "r",
          "report.pdf",
          "report.v.000000000-00000000",
        ]);
      });

      it("keeps namespaces sharing one byte store apart", async () => {
        const a = storeOn(backend.byteStore, { namespace: "alpha" });
        const b = storeOn(backend.byteStore, { namespace: "beta" });
        await a.addTree(makeTree("doc", { seed: 1 }));
        await b.addTree(makeTree("doc", { seed: 2 }));
        expect(await a.getTree("doc")).toEqual(makeTree("doc", { seed: 1 }));
        expect(await b.getTree("doc")).toEqual(makeTree("doc", { seed: 2 }));
        await a.deleteDocument("doc");
        expect(await a.listDocuments()).toEqual([]);
        expect((await b.listDocuments()).map((d) => d.docId)).toEqual(["doc"]);
        expect(() => storeOn(backend.byteStore, { namespace: "a.b" })).toThrow(InvalidIdError);
      });

      it("finds documents by name, source and content hash", async () => {
        const store = storeOn(backend.byteStore);
        await store.addTree(
          makeTree("a", { docName: "Annual Report.pdf", source: "/data/ar-2024.pdf", contentHash: "h1" }),
        );
        await store.addTree(
          makeTree("b", { docName: "Manual.md", source: "/data/manual.md", contentHash: "h2" }),
        );
        const ids = async (q: Parameters<PageIndexStore["findDocuments"]>[0]) =>
          (await store.findDocuments(q)).map((d) => d.docId);
        expect(await ids({ name: "Manual.md" })).toEqual(["b"]);
        expect(await ids({ name: "manual.md" })).toEqual([]);
        expect(await ids({ name: "report", match: "contains" })).toEqual(["a"]);
        expect(await ids({ source: "/data/ar-2024.pdf" })).toEqual(["a"]);
        expect(await ids({ source: "/DATA/", match: "contains" })).toEqual(["a", "b"]);
        expect(await ids({ contentHash: "h2" })).toEqual(["b"]);
        expect(await ids({ name: "Manual.md", contentHash: "h1" })).toEqual([]);
      });
    });

    describe("document id reservations", () => {
      it("an id is reserved for one owner until its document is deleted or it is released", async () => {
        const store = storeOn(backend.byteStore);
        expect(await store.reserveDocId("notes.md", "/a/notes.md")).toEqual({ reserved: true });
        expect(await store.reserveDocId("notes.md", "/a/notes.md")).toEqual({ reserved: true });
        const other = storeOn(await backend.reopen());
        expect(await other.reserveDocId("notes.md", "/b/notes.md")).toEqual({
          reserved: false,
          owner: "/a/notes.md",
        });
        await store.addTree(makeTree("notes.md", { nodes: 3 }));
        await store.deleteDocument("notes.md");
        expect(await other.reserveDocId("notes.md", "/b/notes.md")).toEqual({ reserved: true });
        await other.releaseDocId("notes.md", "/a/notes.md"); // not the holder: nothing happens
        expect((await store.reserveDocId("notes.md", "/a/notes.md")).reserved).toBe(false);
        await other.releaseDocId("notes.md", "/b/notes.md");
        expect(await store.reserveDocId("notes.md", "/a/notes.md")).toEqual({ reserved: true });
        await expect(store.reserveDocId("../x", "/a")).rejects.toBeInstanceOf(InvalidIdError);
      });

      it("a reservation whose process died before storing the document is taken over after the grace period", async () => {
        await storeOn(backend.byteStore).reserveDocId("lost.md", "/dead/lost.md");
        expect((await storeOn(backend.byteStore).reserveDocId("lost.md", "/b/lost.md")).reserved).toBe(false);
        const patient = storeOn(await backend.reopen(), { orphanGraceMs: 0 });
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(await patient.reserveDocId("lost.md", "/b/lost.md")).toEqual({ reserved: true });
        // …but never from a stored document.
        await patient.addTree(makeTree("kept.md", { nodes: 2 }));
        await patient.reserveDocId("kept.md", "/b/kept.md");
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect((await patient.reserveDocId("kept.md", "/c/kept.md")).reserved).toBe(false);
        // vacuum removes reservations past the grace period whose document was never stored.
        await patient.reserveDocId("never.md", "/dead/never.md");
        await new Promise((resolve) => setTimeout(resolve, 5));
        await patient.vacuum({ graceMs: 0 });
        expect(await allKeys(backend.byteStore, "pageindex.claim.")).toEqual(["pageindex.claim.kept.md"]);
      });

      it("of concurrent reservations of one id exactly one wins (across handles where the byte store is atomic)", async () => {
        const atomic = hasCreateIfAbsent(backend.byteStore);
        const handles = await Promise.all(
          Array.from({ length: 6 }, async () => storeOn(atomic ? await backend.reopen() : backend.byteStore)),
        );
        const results = await Promise.all(
          handles.map((h, i) => h.reserveDocId("same.md", `/dir-${i}/same.md`)),
        );
        expect(results.filter((r) => r.reserved)).toHaveLength(1);
      });
    });

    describe("replace and delete", () => {
      it("replaces a document and removes the old version's keys (supersededGraceMs 0: at once)", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 800, supersededGraceMs: 0 });
        await store.addTree(makeTree("doc", { nodes: 50, seed: 1 }));
        const firstKeys = await allKeys(backend.byteStore, "pageindex.");
        const next = makeTree("doc", { nodes: 20, seed: 2 });
        await store.addTree(next);
        expect(await store.getTree("doc")).toEqual(next);
        const keys = await allKeys(backend.byteStore, "pageindex.");
        const versionKeys = keys.filter((k) => !k.startsWith("pageindex.catalog."));
        expect(versionKeys.filter((k) => firstKeys.includes(k))).toEqual(["pageindex.head.doc"]);
        expect(keys.filter((k) => k.endsWith(".skeleton"))).toHaveLength(1);
      });

      it("sees a replacement made through another handle (cache invalidated by the head)", async () => {
        const reader = storeOn(backend.byteStore);
        const writer = storeOn(await backend.reopen());
        await writer.addTree(makeTree("doc", { nodes: 10, seed: 1 }));
        expect((await reader.getSkeleton("doc")).nodes).toHaveLength(10);
        await writer.addTree(makeTree("doc", { nodes: 12, seed: 2 }));
        expect(await reader.getSkeleton("doc")).toEqual(toSkeleton(makeTree("doc", { nodes: 12, seed: 2 })));
        expect((await reader.getNodeTexts("doc", ["0011"])).get("0011")).toBe(
          makeTree("doc", { nodes: 12, seed: 2 }).nodes[11]?.text,
        );
        await writer.deleteDocument("doc");
        await expect(reader.getSkeleton("doc")).rejects.toBeInstanceOf(DocumentNotFoundError);
      });

      it("keeps a superseded version readable for its grace period, then the next write removes it", async () => {
        let now = Date.parse("2026-01-01T00:00:00Z");
        const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
        try {
          const store = storeOn(backend.byteStore, { chunkChars: 800, supersededGraceMs: 60_000 });
          await store.addTree(makeTree("doc", { nodes: 50, seed: 1 }));
          const firstKeys = (await allKeys(backend.byteStore, "pageindex.doc.")).filter((k) =>
            k.includes(".v."),
          );
          await store.addTree(makeTree("doc", { nodes: 20, seed: 2 }));
          const kept = await allKeys(backend.byteStore, "pageindex.doc.");
          expect(firstKeys.every((k) => kept.includes(k))).toBe(true); // a reader may still be on them
          expect(await allKeys(backend.byteStore, "pageindex.retired.")).toHaveLength(1);
          now += 61_000;
          await store.addTree(makeTree("other", { nodes: 2 }));
          const after = await allKeys(backend.byteStore, "pageindex.doc.doc.");
          expect(after.filter((k) => firstKeys.includes(k))).toEqual([]);
          expect(await allKeys(backend.byteStore, "pageindex.retired.")).toEqual([]);
          expect(await store.getTree("doc")).toEqual(makeTree("doc", { nodes: 20, seed: 2 }));
        } finally {
          clock.mockRestore();
        }
      });

      /**
       * A reader that has read the skeleton of "doc"; right before it fetches its first text
       * chunk, another handle replaces the document with `next` (writer options `options`).
       */
      async function readerReplacedAtFirstText(
        next: TreeDocument,
        options: { supersededGraceMs?: number },
        cacheSize?: number,
      ): Promise<PageIndexStore> {
        const racing = new WrappedStore(await backend.reopen());
        const reader = storeOn(racing, {
          chunkChars: 300,
          ...(cacheSize === undefined ? {} : { cacheSize }),
        });
        await reader.getSkeleton("doc");
        racing.beforeMget = async (keys) => {
          if (!keys.some((k) => k.includes(".text."))) return;
          racing.beforeMget = undefined;
          await storeOn(await backend.reopen(), { chunkChars: 300, ...options }).addTree(next);
        };
        return reader;
      }

      it("a read racing a replacement by another process finishes on the version it started on", async () => {
        const writer = storeOn(backend.byteStore, { chunkChars: 300 });
        const first = makeTree("doc", { nodes: 30, seed: 1 });
        await writer.addTree(first);
        // No skeleton cached: the head, the skeleton, then the texts, replaced before those.
        const reader = await readerReplacedAtFirstText(makeTree("doc", { nodes: 30, seed: 2 }), {}, 0);
        const texts = await reader.getNodeTexts("doc", ["0005", "0029"]);
        expect(texts.get("0005")).toBe(first.nodes[5]?.text);
        expect(texts.get("0029")).toBe(first.nodes[29]?.text);
      });

      it("a read of a cached version reads the head with the texts: a replacement before it is what it reads", async () => {
        const writer = storeOn(backend.byteStore, { chunkChars: 300 });
        await writer.addTree(makeTree("doc", { nodes: 30, seed: 1 }));
        const next = makeTree("doc", { nodes: 30, seed: 2 });
        const reader = await readerReplacedAtFirstText(next, {});
        const texts = await reader.getNodeTexts("doc", ["0005", "0029"]);
        expect(texts.get("0005")).toBe(next.nodes[5]?.text);
        expect(texts.get("0029")).toBe(next.nodes[29]?.text);
      });

      it("a read racing a replacement that deletes the old version at once retries on the new version", async () => {
        const writer = storeOn(backend.byteStore, { chunkChars: 300 });
        await writer.addTree(makeTree("doc", { nodes: 30, seed: 1 }));
        const next = makeTree("doc", { nodes: 30, seed: 2 });
        // Right before the reader fetches a text chunk, the document is replaced and the old
        // version deleted, so the chunk it was about to read is gone.
        const reader = await readerReplacedAtFirstText(next, { supersededGraceMs: 0 });
        const texts = await reader.getNodeTexts("doc", ["0005", "0029"]);
        expect(texts.get("0005")).toBe(next.nodes[5]?.text);
        expect(texts.get("0029")).toBe(next.nodes[29]?.text);

        const third = makeTree("doc", { nodes: 30, seed: 3 });
        const fresh = new WrappedStore(await backend.reopen());
        fresh.beforeMget = async (keys) => {
          if (!keys.some((k) => k.endsWith(".skeleton"))) return;
          fresh.beforeMget = undefined;
          await storeOn(await backend.reopen(), { supersededGraceMs: 0 }).addTree(third);
        };
        expect(await storeOn(fresh).getTree("doc")).toEqual(third);
      });

      it("deletes a document and all its keys", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 500 });
        await store.addTree(makeTree("gone", { nodes: 30 }));
        await store.addTree(makeTree("kept", { nodes: 5 }));
        expect(await store.deleteDocument("gone")).toBe(true);
        expect(await store.deleteDocument("gone")).toBe(false);
        await expect(store.getSkeleton("gone")).rejects.toBeInstanceOf(DocumentNotFoundError);
        await expect(store.getNodeTexts("gone", ["0000"])).rejects.toThrow(/No document "gone"/);
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["kept"]);
        expect(await allKeys(backend.byteStore, "pageindex.doc.gone.")).toEqual([]);
      });

      it("keeps all documents added at once", async () => {
        const store = storeOn(backend.byteStore);
        const ids = Array.from({ length: 12 }, (_, i) => `doc-${i}`);
        await Promise.all(ids.map((id, i) => storeOn(backend.byteStore).addTree(makeTree(id, { seed: i }))));
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual([...ids].sort());
      });

      it("rejects ids that could escape the store", async () => {
        const store = storeOn(backend.byteStore);
        for (const bad of [
          "../etc",
          "a/b",
          "..",
          "",
          "a b",
          "x\\y",
          "a".repeat(maxDocIdLength("pageindex") + 1),
        ]) {
          await expect(store.getSkeleton(bad)).rejects.toBeInstanceOf(InvalidIdError);
          await expect(store.deleteDocument(bad)).rejects.toBeInstanceOf(InvalidIdError);
        }
        const escaping = { ...makeTree("ok"), docId: "../../etc/passwd" };
        await expect(store.addTree(escaping)).rejects.toBeInstanceOf(TreeValidationError);
        const long = makeTree("a".repeat(maxDocIdLength("pageindex") + 1), { nodes: 1 });
        await expect(store.addTree(long)).rejects.toBeInstanceOf(InvalidIdError);
        expect(await allKeys(backend.byteStore)).toEqual([]);
      });

      it("refuses an id equal to a stored one but for case, or ending in a dot, writing nothing", async () => {
        const store = storeOn(backend.byteStore);
        const original = makeTree("Report", { nodes: 5 });
        await store.addTree(original);
        const before = await allKeys(backend.byteStore);
        const error = await store.addTree(makeTree("report", { nodes: 3 })).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DocumentIdConflictError);
        expect(error).toBeInstanceOf(InvalidIdError);
        expect((error as Error).message).toMatch(/"report" differs only in letter case .* "Report"/);
        expect(error).toMatchObject({ docId: "report", existingDocId: "Report" });
        await expect(store.addTree(makeTree("report.", { nodes: 3 }))).rejects.toThrow(/ends with a dot/);
        expect(await allKeys(backend.byteStore)).toEqual(before);
        await store.addTree(makeTree("Report", { nodes: 4, seed: 2 })); // replacing itself is fine
        await store.addTree(makeTree("Report.pdf", { nodes: 2 }));
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["Report", "Report.pdf"]);
      });

      it("rejects an invalid tree before writing anything", async () => {
        const store = storeOn(backend.byteStore);
        const tree = makeTree("doc", { nodes: 5 });
        const broken = {
          ...tree,
          nodes: tree.nodes.map((n, i) => (i === 2 ? { ...n, parentId: "9999" } : n)),
        };
        await expect(store.addTree(broken)).rejects.toBeInstanceOf(TreeValidationError);
        expect(await allKeys(backend.byteStore)).toEqual([]);
      });
    });

    describe("crashed writes", () => {
      it("keeps the old tree when a replacement dies midway, and cleans up the orphan", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 300 });
        const old = makeTree("doc", { nodes: 40, seed: 1 });
        await store.addTree(old);
        const failing = new WrappedStore(await backend.reopen());
        failing.failOnMset = 3; // the pending marker, one batch of 4 keys, then the crash
        const writer = storeOn(failing, { chunkChars: 300, writeBatchSize: 4 });
        await expect(writer.addTree(makeTree("doc", { nodes: 40, seed: 2 }))).rejects.toThrow(
          /simulated crash/,
        );

        const reader = storeOn(await backend.reopen());
        expect(await reader.getTree("doc")).toEqual(old);
        expect(await reader.vacuum()).toMatchObject({ deletedKeys: 0, youngVersions: 1 });
        const result = await reader.vacuum({ graceMs: 0 });
        expect(result).toMatchObject({
          deletedKeys: 4,
          removedVersions: 1,
          youngVersions: 0,
          foreignKeys: [],
        });
        expect(await reader.getTree("doc")).toEqual(old);
      });

      it("removes a document's stale orphans on its next write", async () => {
        const store = storeOn(backend.byteStore, { chunkChars: 300 });
        await store.addTree(makeTree("doc", { seed: 1 }));
        const failing = new WrappedStore(backend.byteStore);
        failing.failOnMset = 3;
        await expect(
          storeOn(failing, { chunkChars: 300, writeBatchSize: 2 }).addTree(makeTree("doc", { seed: 2 })),
        ).rejects.toThrow();
        const orphaned = await allKeys(backend.byteStore, "pageindex.doc.");
        const cleaner = storeOn(backend.byteStore, {
          chunkChars: 300,
          orphanGraceMs: 0,
          supersededGraceMs: 0,
        });
        const latest = makeTree("doc", { seed: 3 });
        await cleaner.addTree(latest);
        const after = await allKeys(backend.byteStore, "pageindex.doc.");
        expect(after.filter((k) => orphaned.includes(k))).toEqual([]);
        expect(await cleaner.getTree("doc")).toEqual(latest);
      });
      it("a later write of any document cleans unfinished writes past the grace period, a bounded number each", async () => {
        const crash = async (docId: string) => {
          const failing = new WrappedStore(backend.byteStore);
          failing.failOnMset = 3; // marker and one batch written, then the writer dies
          await expect(
            storeOn(failing, { chunkChars: 300, writeBatchSize: 2 }).addTree(makeTree(docId, { seed: 4 })),
          ).rejects.toThrow(/simulated crash/);
        };
        for (const id of ["lost-1", "lost-2", "lost-3"]) await crash(id);
        const leftovers = async () => ({
          versions: await allKeys(backend.byteStore, "pageindex.doc.lost-"),
          pending: await allKeys(backend.byteStore, "pageindex.pending."),
        });
        expect((await leftovers()).pending).toHaveLength(3);
        expect((await leftovers()).versions).toHaveLength(6);

        // Within the grace period (default 15 min) another process may still be writing them.
        await storeOn(backend.byteStore).addTree(makeTree("other", { nodes: 3 }));
        expect((await leftovers()).pending).toHaveLength(3);

        const cleaner = storeOn(backend.byteStore, { orphanGraceMs: 0, unfinishedWritesPerWrite: 2 });
        await cleaner.addTree(makeTree("other", { nodes: 3, seed: 2 }));
        expect((await leftovers()).pending).toHaveLength(1);
        expect((await leftovers()).versions).toHaveLength(2);
        await cleaner.addTree(makeTree("third", { nodes: 3 }));
        expect(await leftovers()).toEqual({ versions: [], pending: [] });
        expect((await cleaner.listDocuments()).map((d) => d.docId)).toEqual(["other", "third"]);
      });

      it("a store handle looks for unfinished writes at most once a minute, not on every write", async () => {
        const recording = new WrappedStore(backend.byteStore);
        const store = storeOn(recording);
        for (const id of ["a", "b", "c"]) await store.addTree(makeTree(id, { nodes: 2 }));
        expect(recording.listings.filter((prefix) => prefix === "pageindex.pending.")).toHaveLength(1);
      });

      it("a marker left by a writer that died after publishing never costs the published version", async () => {
        const tree = makeTree("doc", { nodes: 12 });
        const writer = storeOn(backend.byteStore, { chunkChars: 300 });
        await writer.addTree(tree);
        const head = await readJson(backend.byteStore, "pageindex.head.doc");
        const marker = `pageindex.pending.doc.v.${head.versionId as string}.${head.chunks as number}`;
        await backend.byteStore.mset([[marker, json({})]]); // as if it died before removing it
        await storeOn(backend.byteStore, { orphanGraceMs: 0 }).addTree(makeTree("other", { nodes: 2 }));
        expect(await allKeys(backend.byteStore, "pageindex.pending.")).toEqual([]);
        expect(await storeOn(await backend.reopen()).getTree("doc")).toEqual(tree);
      });
    });

    describe("bad data", () => {
      async function twoDocs(options: PageIndexStoreOptions = {}) {
        const store = storeOn(backend.byteStore, { chunkChars: 300, ...options });
        await store.addTree(makeTree("bad", { nodes: 20, seed: 1 }));
        await store.addTree(makeTree("good", { nodes: 20, seed: 2 }));
        const head = await readJson(backend.byteStore, "pageindex.head.bad");
        const base = `pageindex.doc.bad.v.${head.versionId as string}`;
        // A fresh instance: nothing cached.
        return { store: storeOn(await backend.reopen()), base, head };
      }

      async function expectCorrupt(promise: Promise<unknown>, key: string, reason: RegExp) {
        const error = await promise.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(StoreCorruptionError);
        const corruption = error as StoreCorruptionError;
        expect(corruption.key).toBe(key);
        expect(corruption.docId).toBe("bad");
        expect(corruption.message).toContain(`"${key}"`);
        expect(corruption.message).toContain('document "bad"');
        expect(corruption.reason).toMatch(reason);
      }

      async function expectOthersUsable(store: PageIndexStore) {
        expect(await store.getTree("good")).toEqual(makeTree("good", { nodes: 20, seed: 2 }));
        await store.addTree(makeTree("third", { nodes: 3 }));
        expect(await store.hasDocument("third")).toBe(true);
      }

      it("a corrupt head: clear error, skipped by listDocuments, replaceable and deletable", async () => {
        const { store } = await twoDocs();
        await backend.byteStore.mset([
          ["pageindex.head.bad", encoder.encode('{"format":"pageindex-store/he')],
        ]);
        await expectCorrupt(store.getSkeleton("bad"), "pageindex.head.bad", /not valid JSON/);
        await expectCorrupt(store.getNodeTexts("bad", ["0000"]), "pageindex.head.bad", /not valid JSON/);

        expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["good"]);
        expect(problems).toHaveLength(1);
        expect(problems[0]).toBeInstanceOf(StoreCorruptionError);
        const listing = await store.inspectDocuments();
        expect(listing.documents.map((d) => d.docId)).toEqual(["good"]);
        expect(listing.problems.map((p) => (p as StoreCorruptionError).docId)).toEqual(["bad"]);
        await expectOthersUsable(store);
        // vacuum leaves a document with an unreadable head alone
        expect((await store.vacuum({ graceMs: 0 })).deletedKeys).toBe(0);

        const replacement = makeTree("bad", { nodes: 4, seed: 9 });
        await store.addTree(replacement);
        expect(await store.getTree("bad")).toEqual(replacement);
        await backend.byteStore.mset([["pageindex.head.bad", encoder.encode("garbage")]]);
        expect(await store.deleteDocument("bad")).toBe(true);
        expect(await store.hasDocument("bad")).toBe(false);
      });

      it("a truncated skeleton", async () => {
        const { store, base } = await twoDocs();
        const [raw] = await backend.byteStore.mget([`${base}.skeleton`]);
        await backend.byteStore.mset([[`${base}.skeleton`, (raw as Uint8Array).slice(0, 100)]]);
        await expectCorrupt(store.getSkeleton("bad"), `${base}.skeleton`, /not valid JSON/);
        await expectCorrupt(store.getNodes("bad", ["0001"]), `${base}.skeleton`, /not valid JSON/);
        expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["bad", "good"]);
        await expectOthersUsable(store);
      });

      it("a truncated text chunk fails only the nodes in that chunk", async () => {
        const { store, base } = await twoDocs();
        const chunkStarts = (await readJson(backend.byteStore, `${base}.skeleton`)).chunkStarts as number[];
        const [raw] = await backend.byteStore.mget([`${base}.text.1`]);
        await backend.byteStore.mset([[`${base}.text.1`, (raw as Uint8Array).slice(0, -7)]]);
        const tree = makeTree("bad", { nodes: 20, seed: 1 });
        const inChunk1 = tree.nodes[chunkStarts[1] as number]?.nodeId as string;
        expect((await store.getNodeTexts("bad", ["0000"])).get("0000")).toBe(tree.nodes[0]?.text);
        expect(await store.getSkeleton("bad")).toEqual(toSkeleton(tree));
        await expectCorrupt(
          store.getNodeTexts("bad", ["0000", inChunk1]),
          `${base}.text.1`,
          /not valid JSON/,
        );
        await expectCorrupt(store.getTree("bad"), `${base}.text.1`, /not valid JSON/);
        await expectOthersUsable(store);
      });

      it("a missing node text or skeleton", async () => {
        const { store, base } = await twoDocs();
        await backend.byteStore.mdelete([`${base}.text.0`]);
        await expectCorrupt(store.getNodeTexts("bad", ["0000"]), `${base}.text.0`, /missing/);
        await backend.byteStore.mdelete([`${base}.skeleton`]);
        // `store` has the skeleton cached (the head did not change); a new reader has not.
        await expectCorrupt(storeOn(backend.byteStore).getSkeleton("bad"), `${base}.skeleton`, /missing/);
        await expectOthersUsable(store);
      });

      it("bytes that are not UTF-8", async () => {
        const { store, base } = await twoDocs();
        await backend.byteStore.mset([[`${base}.text.0`, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]]);
        await expectCorrupt(store.getNodeTexts("bad", ["0000"]), `${base}.text.0`, /UTF-8/);
      });

      it("values from another program under our namespace", async () => {
        const { store, base } = await twoDocs();
        await backend.byteStore.mset([
          ["pageindex.head.bad", json({ hello: "world" })],
          ["pageindex.head..hidden", json({})],
          ["pageindex.doc.notes", json({ mine: true })],
        ]);
        await expectCorrupt(store.getSkeleton("bad"), "pageindex.head.bad", /not a pageindex-store head/);
        const listing = await store.inspectDocuments();
        expect(listing.documents.map((d) => d.docId)).toEqual(["good"]);
        expect(listing.problems.map((p) => (p as StoreCorruptionError).key).sort()).toEqual([
          "pageindex.head..hidden",
          "pageindex.head.bad",
        ]);
        const vacuum = await store.vacuum({ graceMs: 0 });
        expect(vacuum.foreignKeys).toEqual(["pageindex.doc.notes"]);
        expect(vacuum.deletedKeys).toBe(0);
        expect(await allKeys(backend.byteStore, `${base}.`)).not.toEqual([]);
        expect((await backend.byteStore.mget(["pageindex.doc.notes"]))[0]).toBeDefined();
        await expectOthersUsable(store);
      });

      it("a value changed after it was written (checksum mismatch)", async () => {
        const { store, base } = await twoDocs();
        const flip = async (key: string, from: string, to: string) => {
          const [raw] = await backend.byteStore.mget([key]);
          const text = decoder.decode(raw);
          expect(text).toContain(from);
          await backend.byteStore.mset([[key, encoder.encode(text.replace(from, to))]]);
        };
        await flip(`${base}.text.0`, "revenue", "revenuf");
        await expectCorrupt(
          store.getNodeTexts("bad", ["0000"]),
          `${base}.text.0`,
          /checksum recorded in the skeleton/,
        );
        await flip(`${base}.skeleton`, "Section 1 ", "Section 7 ");
        await expectCorrupt(
          storeOn(backend.byteStore).getSkeleton("bad"),
          `${base}.skeleton`,
          /checksum recorded in the head/,
        );
        await expectOthersUsable(store);
      });

      it("well-formed JSON describing a broken tree, checksums intact", async () => {
        const { store, base } = await twoDocs();
        await rewriteConsistently(backend.byteStore, "bad", `${base}.skeleton`, (value) => {
          const tree = value.tree as { nodes: Array<{ childIds: string[] }> };
          tree.nodes[0]?.childIds.push("7777");
        });
        await expectCorrupt(store.getSkeleton("bad"), `${base}.skeleton`, /invalid tree: .*7777/);
        await expectOthersUsable(store);
      });

      // What a checksummed value's structure check (both modes) stops before navigation meets it.
      type Nodes = { nodes: Array<Record<string, unknown> | null> };
      const setField = (node: number, field: string, value: unknown) => (tree: Nodes) => {
        (tree.nodes[node] as Record<string, unknown>)[field] = value;
      };
      const brokenStructures: Array<[string, (tree: Nodes) => void, RegExp]> = [
        ["a child list that is not a list", setField(0, "childIds", "0001"), /nodes\[0\]\.childIds/],
        ["a title that is not text", setField(2, "title", 7), /nodes\[2\]\.title/],
        ["a summary that is not text", setField(3, "summary", ["x"]), /nodes\[3\]\.summary/],
        ["two nodes with one id", (t) => setField(5, "nodeId", t.nodes[4]?.nodeId)(t), /duplicate node id/],
        ["a line past the document's last", setField(1, "endLine", 10_000), /past the document's last line/],
        ["a node that is not an object", (t) => void t.nodes.splice(6, 1, null), /nodes/],
      ];
      for (const [what, mutate, reason] of brokenStructures) {
        it(`${what}, checksums intact: a corruption error naming the key`, async () => {
          const { store, base } = await twoDocs();
          await rewriteConsistently(backend.byteStore, "bad", `${base}.skeleton`, (value) => {
            mutate(value.tree as Nodes);
          });
          await expectCorrupt(storeOn(backend.byteStore).getSkeleton("bad"), `${base}.skeleton`, reason);
          await expectCorrupt(
            storeOn(backend.byteStore).getNodes("bad", ["0000"]),
            `${base}.skeleton`,
            reason,
          );
          await expectOthersUsable(store);
        });
      }

      it("a text chunk with the wrong number of texts, checksums intact", async () => {
        const { store, base } = await twoDocs();
        await rewriteConsistently(backend.byteStore, "bad", `${base}.text.0`, (value) => {
          (value.texts as string[]).pop();
        });
        await expectCorrupt(store.getNodeTexts("bad", ["0000"]), `${base}.text.0`, /number of texts/);
      });

      it("a value copied under another document's key", async () => {
        const { store } = await twoDocs();
        const [goodHead] = await backend.byteStore.mget(["pageindex.head.good"]);
        await backend.byteStore.mset([["pageindex.head.bad", goodHead as Uint8Array]]);
        await expectCorrupt(store.getSkeleton("bad"), "pageindex.head.bad", /belongs elsewhere/);
      });

      it("a newer or older stored format: a clear version error", async () => {
        const { store, base, head } = await twoDocs();
        await backend.byteStore.mset([["pageindex.head.bad", json({ ...head, storeVersion: 99 })]]);
        const newer = await store.getSkeleton("bad").catch((e: unknown) => e);
        expect(newer).toBeInstanceOf(StoreVersionError);
        expect((newer as Error).message).toMatch(
          /version 99 of document "bad".*newer pageindex-store; upgrade/,
        );

        await backend.byteStore.mset([["pageindex.head.bad", json({ ...head, storeVersion: 0 })]]);
        const older = await store.getSkeleton("bad").catch((e: unknown) => e);
        expect(older).toBeInstanceOf(StoreVersionError);
        expect((older as Error).message).toMatch(/version 0 .*rebuild the document/);

        await backend.byteStore.mset([["pageindex.head.bad", json(head)]]);
        const skeleton = await readJson(backend.byteStore, `${base}.skeleton`);
        (skeleton.tree as Record<string, unknown>).schemaVersion = 2;
        await backend.byteStore.mset([[`${base}.skeleton`, json(skeleton)]]);
        const tree = await store.getSkeleton("bad").catch((e: unknown) => e);
        expect(tree).toBeInstanceOf(StoreVersionError);
        expect((tree as Error).message).toMatch(/tree schema version 2/);
        expect((await store.inspectDocuments()).problems).toEqual([]);
        await expectOthersUsable(store);
      });
    });
  });
}
