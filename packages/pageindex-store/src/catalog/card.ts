import {
  type DocumentInfo,
  documentInfo,
  stem,
  type TreeDocument,
  type TreeSkeleton,
  tokenize,
} from "pageindex-core";

/** A section named on a card: its id and title (one line). */
export interface CardSection {
  nodeId: string;
  title: string;
}

/** A top-level section on a card, with what its summary says. */
export interface CardOutlineEntry extends CardSection {
  summary?: string;
}

/**
 * What the corpus catalog knows of one document: its list entry (name, source, kind, pages,
 * description, user metadata) plus what reaches inside it — the top-level sections with their
 * summaries and every section title (up to {@link CARD_LIMITS}`.sections`).
 */
export interface DocumentCard extends DocumentInfo {
  /** The published version this card describes. */
  versionId: string;
  /** Top-level sections (the roots, or a single root's children) with summaries. */
  outline: CardOutlineEntry[];
  /** Every section title in document order, up to {@link CARD_LIMITS}`.sections`. */
  sections: CardSection[];
}

/** Size limits of one card, so a 10,000-section manual does not make a 10,000-line card. */
export const CARD_LIMITS = {
  /** Section titles kept. */
  sections: 256,
  /** Characters of one title. */
  titleChars: 120,
  /** Top-level entries kept. */
  outline: 24,
  /** Characters of one outline summary. */
  summaryChars: 200,
  /** Distinctive terms kept from the document's texts and summaries. */
  terms: 32,
} as const;

/**
 * The lexical fields of a card, in order: name, about (description, source, metadata),
 * outline (top-level titles and summaries), section titles, distinctive terms. Weights and
 * length normalisation (BM25F): a name or a section title is short and precise; the term bag
 * is a summary of the text, so it counts, but less.
 */
export const CARD_FIELDS = [
  { name: "name", weight: 3, b: 0.3 },
  { name: "about", weight: 1.5, b: 0.5 },
  { name: "outline", weight: 1, b: 0.6 },
  { name: "sections", weight: 1.2, b: 0.6 },
  { name: "terms", weight: 0.6, b: 0.2 },
] as const;

/** Terms of one card, per field (see {@link CARD_FIELDS}). */
export type CardTerms = string[][];

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Name words: extension dropped, camelCase and letter-digit boundaries split. */
export function nameTerms(name: string): string[] {
  const base = name.replace(/\.[a-z0-9]{2,5}$/i, "").replace(/([a-z])([A-Z])/g, "$1 $2");
  return tokenize(base);
}

/**
 * Query words plus concatenations of adjacent words, so "Best Buy" meets "BESTBUY" in a file
 * name; the concatenations come second (they weigh less).
 */
export function queryNameTerms(query: string): string[] {
  const raw = query
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .match(/\p{L}+/gu);
  const out: string[] = [];
  if (raw) for (let i = 1; i < raw.length; i += 1) out.push(stem(`${raw[i - 1]}${raw[i]}`));
  return out;
}

/** Scalar values of user metadata, flattened one level (front matter sits under a key). */
export function metadataFacets(metadata: Record<string, unknown> | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const scalar = (key: string, value: unknown): void => {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out.push([key.toLowerCase(), String(value).trim().toLowerCase()]);
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, 32)) {
        if (typeof item !== "object" || item === null) scalar(key, item);
      }
    }
  };
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, nested] of Object.entries(value as Record<string, unknown>)) scalar(inner, nested);
    } else {
      scalar(key, value);
    }
  }
  return out;
}

/** The card of a tree (skeleton fields only). */
export function buildCard(tree: TreeDocument | TreeSkeleton, versionId: string): DocumentCard {
  const info = documentInfo(tree);
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const roots = tree.rootIds.map((id) => byId.get(id)).filter((n) => n !== undefined);
  const top =
    roots.length === 1 && roots[0] && roots[0].childIds.length > 0
      ? [roots[0], ...roots[0].childIds.map((id) => byId.get(id)).filter((n) => n !== undefined)]
      : roots;
  const outline = top.slice(0, CARD_LIMITS.outline).map((node) => {
    const entry: CardOutlineEntry = {
      nodeId: node.nodeId,
      title: oneLine(node.title, CARD_LIMITS.titleChars),
    };
    const summary = oneLine(node.summary ?? node.prefixSummary ?? "", CARD_LIMITS.summaryChars);
    if (summary) entry.summary = summary;
    return entry;
  });
  const sections = tree.nodes.slice(0, CARD_LIMITS.sections).map((node) => ({
    nodeId: node.nodeId,
    title: oneLine(node.title, CARD_LIMITS.titleChars),
  }));
  return { ...info, versionId, outline, sections };
}

/**
 * The most distinctive terms of a document: those most frequent in its texts (or, without
 * texts, its summaries), weighted towards terms concentrated in few sections — what a question
 * about a detail deep inside the document is likely to say.
 */
export function distinctiveTerms(
  tree: TreeDocument | TreeSkeleton,
  limit: number = CARD_LIMITS.terms,
): string[] {
  const total = new Map<string, number>();
  const spread = new Map<string, number>();
  for (const node of tree.nodes) {
    const text = "text" in node && typeof node.text === "string" ? node.text : "";
    const source = `${node.summary ?? ""} ${node.prefixSummary ?? ""} ${text.slice(0, 20_000)}`;
    const seen = new Set<string>();
    for (const term of tokenize(source)) {
      if (/^\d+$/.test(term) || term.length < 3) continue;
      total.set(term, (total.get(term) ?? 0) + 1);
      if (!seen.has(term)) {
        seen.add(term);
        spread.set(term, (spread.get(term) ?? 0) + 1);
      }
    }
  }
  const sections = Math.max(1, tree.nodes.length);
  return [...total]
    .map(([term, count]) => ({ term, weight: count * Math.log(1 + sections / (spread.get(term) ?? 1)) }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, limit)
    .map((t) => t.term);
}

/** The lexical fields of a card (see {@link CARD_FIELDS}); `terms` is the distinctive-term bag. */
export function cardTerms(card: DocumentCard, terms: readonly string[]): CardTerms {
  const about = [card.description ?? "", card.source?.split(/[\\/]/).pop() ?? ""];
  for (const [key, value] of metadataFacets(card.metadata)) about.push(`${key} ${value}`);
  return [
    [...nameTerms(card.docName), ...tokenize(card.docId.replace(/[._-]+/g, " "))],
    tokenize(about.join(" ")),
    tokenize(card.outline.map((o) => `${o.title} ${o.summary ?? ""}`).join(" ")),
    tokenize(card.sections.map((s) => s.title).join(" ")),
    [...terms],
  ];
}
