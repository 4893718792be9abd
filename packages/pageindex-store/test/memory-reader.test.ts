import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { MemoryTreeReader, TreeValidationError } from "../src/index.js";
import { topicTree } from "./helpers/trees.js";

describe("MemoryTreeReader", () => {
  it("names a value that is not a tree instead of failing with a TypeError", () => {
    for (const notATree of [{}, null, "report.pdf", { docId: "a.md" }]) {
      const build = () => new MemoryTreeReader([notATree as unknown as TreeDocument]);
      expect(build).toThrow(TreeValidationError);
      expect(build).toThrow("not a tree: expected an object with docId and nodes (e.g. from loadTree())");
    }
    const reader = new MemoryTreeReader();
    expect(() => reader.add(undefined as unknown as TreeDocument)).toThrow(TreeValidationError);
  });

  it("takes trees as before", async () => {
    const reader = new MemoryTreeReader([topicTree("printer", ["paper jams", "toner"])]);
    expect((await reader.listDocuments()).map((d) => d.docId)).toHaveLength(1);
  });
});
