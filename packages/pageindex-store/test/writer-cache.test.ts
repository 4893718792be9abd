import { InMemoryStore } from "@langchain/core/stores";
import { expect, it } from "vitest";
import { PageIndexStore } from "../src/index.js";
import { makeTree } from "./helpers/trees.js";

it("the writer's cached skeleton equals what a fresh reader decodes, whatever metadata holds", async () => {
  const byteStore = new InMemoryStore<Uint8Array>();
  const writer = new PageIndexStore(byteStore);
  // Not JSON values: stored as JSON (an ISO string, nothing), so the writer's cache must match.
  const metadata = { indexedAt: new Date(0), onOpen: () => "hook" };
  const info = await writer.addTree({ ...makeTree("doc", { nodes: 4 }), metadata });
  expect(info.docId).toBe("doc");
  const fromWriter = await writer.getSkeleton("doc");
  const fromReader = await new PageIndexStore(byteStore).getSkeleton("doc");
  expect(fromWriter.metadata).toEqual({ indexedAt: "1970-01-01T00:00:00.000Z" });
  expect(fromWriter).toEqual(fromReader);
});
