/**
 * Where a query's search starts: the scope asked for and the plan made from it. Its own module
 * so the planners (documents.ts, library-starts.ts) and the strategies share the types without
 * importing each other.
 */
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { CatalogFilter } from "pageindex-store";
import type { RankedDocument } from "../types.js";
import type { WorkItem } from "./work.js";

/** How a document's section scores add up to one score (see {@link documentScore}). */
export type DocumentScoring = "sum" | "best";

/** How documents are chosen for a query. */
export interface DocumentScope {
  /** Only these documents. Unknown ids are an error. */
  docIds?: readonly string[] | undefined;
  /** `all` (default) or `llm`: the model picks among the best candidates (lexical without a model). */
  documentSelection: "all" | "llm";
  /** Most documents searched when they are chosen (by the model, or lexically beyond `candidates`). */
  maxDocuments: number;
  /** Documents the catalog ranks (M); in a library of at most this many, all are candidates. */
  candidates: number;
  /** How many of the best candidates are re-ranked by their sections when the catalog's choice is not clear. */
  rerank: number;
  /** The best candidate is searched alone, without asking the model, when it scores this many times the next. */
  margin: number;
  /** How section scores make a document's score. */
  scoring: DocumentScoring;
  /** Metadata every searched document must match. */
  filter?: CatalogFilter | undefined;
  /** A first-stage retriever whose hits (`metadata.docId` / `nodeId`) seed the search. */
  firstStage?: BaseRetrieverInterface | undefined;
  /** `subtree` (default): start at the hit nodes; `document`: only choose documents by the hits. */
  firstStageScope: "subtree" | "document";
}

/** Where the search starts, and how many sequential model calls choosing it took (retries included). */
export interface StartPlan {
  starts: WorkItem[];
  chain: number;
  /** The ranked candidates, when documents were chosen among them. */
  ranking?: RankedDocument[];
}
