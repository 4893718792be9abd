import { describe, expect, it } from "vitest";
import type { DocumentCard } from "../src/catalog/card.js";
import { withStoredCard } from "../src/library/stored-card.js";

const card = {
  docId: "manual",
  docName: "Manual",
  kind: "pdf",
  topTitles: ["Setup"],
} as unknown as DocumentCard;

describe("a hit's card decoded from its stored JSON", () => {
  it("reads as the card it stores, to property reads, spreads, JSON and equality", () => {
    const hit = withStoredCard({ docId: "manual", score: 2, sections: [] }, JSON.stringify(card));
    expect(hit.card).toEqual(card);
    expect({ ...hit }.card).toEqual(card);
    expect(JSON.parse(JSON.stringify(hit))).toEqual({ docId: "manual", score: 2, sections: [], card });
    expect(hit).toEqual({ docId: "manual", score: 2, sections: [], card });
    expect(Object.keys(hit)).toContain("card");
  });

  it("decodes once and keeps what is assigned to it", () => {
    const hit = withStoredCard({ docId: "manual" }, JSON.stringify(card));
    expect(hit.card).toBe(hit.card);
    const other = { ...card, docName: "Other" } as DocumentCard;
    hit.card = other;
    expect(hit.card).toBe(other);
  });
});
