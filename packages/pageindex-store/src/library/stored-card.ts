import type { DocumentCard } from "../catalog/card.js";

/**
 * Gives `hit` a `card` read from the card's stored JSON when first read, then kept. A
 * library-wide search returns about 20 cards and a reader without a model reads none of them
 * (the offline retriever reads hits' ids, scores and sections): parsing each at once cost
 * 0.1-0.2 ms a query at 100,000 documents (~25 KB of JSON; a card holds its section titles). The
 * property is an ordinary enumerable one to its readers (spread, JSON, equality) and may be
 * assigned.
 */
export function withStoredCard<T extends object>(hit: T, json: string): T & { card: DocumentCard } {
  let card: DocumentCard | undefined;
  return Object.defineProperty(hit, "card", {
    enumerable: true,
    configurable: true,
    get: () => {
      card ??= JSON.parse(json) as DocumentCard;
      return card;
    },
    set: (value: DocumentCard) => {
      card = value;
    },
  }) as T & { card: DocumentCard };
}
