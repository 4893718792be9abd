import { BaseDocumentLoader } from "@langchain/core/document_loaders/base";
import type { Document } from "@langchain/core/documents";
import { type NodeDocumentMetadata, type TreeDocument, treeToDocuments } from "pageindex-core";
import { type LoadedSource, type ReadSourceOptions, readSource, type SourceInput } from "./source.js";

/** Where a loaded input came from, as the tree builders take it. */
export interface SourceInfo {
  label: string;
  name?: string;
  path?: string;
}

/** The builders' view of a loaded input. */
export function sourceInfo(loaded: LoadedSource): SourceInfo {
  return {
    label: loaded.label,
    ...(loaded.name !== undefined ? { name: loaded.name } : {}),
    ...(loaded.path !== undefined ? { path: loaded.path } : {}),
  };
}

/**
 * What every tree loader shares: read the input (path, URL, Blob, bytes or text) once, build
 * the tree from it, and expose it the LangChain way — `load()` gives one Document per node.
 */
export abstract class TreeLoader extends BaseDocumentLoader {
  readonly input: SourceInput;

  protected constructor(input: SourceInput) {
    super();
    this.input = input;
  }

  /** How to read the input (name for nameless bytes, size limit). */
  protected readOptions(): ReadSourceOptions {
    return {};
  }

  /** Builds the tree from the input read into memory. */
  protected abstract treeFrom(loaded: LoadedSource): Promise<TreeDocument>;

  /** Reads and indexes the input. */
  async loadTree(): Promise<TreeDocument> {
    return this.treeFrom(await readSource(this.input, this.readOptions()));
  }

  /** One Document per node, in document order (pre-order). */
  async load(): Promise<Document<NodeDocumentMetadata>[]> {
    return treeToDocuments(await this.loadTree());
  }
}

/** Read options from a loader's `docName` / `maxBytes`. */
export function readOptionsOf(options: { docName?: string; maxBytes?: number }): ReadSourceOptions {
  return {
    ...(options.docName !== undefined ? { name: options.docName } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  };
}
