import { InMemoryStore } from "@langchain/core/stores";
import { expect, it } from "vitest";
import { DocumentIdConflictError, PageIndexStore } from "../src/index.js";
import { CaseFoldingStore } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

it("on a case-insensitive disk, a case twin is refused instead of silently replacing the document", async () => {
  const store = new PageIndexStore(new CaseFoldingStore(new InMemoryStore<Uint8Array>()));
  const original = makeTree("Report", { nodes: 6 });
  await store.addTree(original);
  const error = await store.addTree(makeTree("report", { nodes: 3, seed: 2 })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DocumentIdConflictError);
  expect((error as Error).message).toContain(
    '"report" differs only in letter case from the stored document "Report"',
  );
  expect(await new PageIndexStore(store.byteStore).getTree("Report")).toEqual(original);
});
