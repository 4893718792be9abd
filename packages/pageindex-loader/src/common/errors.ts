import { PageIndexError } from "pageindex-core";

/**
 * Base class of the loaders' input errors. `source` names the file (path, Blob name or the
 * caller's `docName`) so a batch run can report which input failed.
 */
export class LoaderInputError extends PageIndexError {
  /** The path or name of the input that failed. */
  readonly source: string;

  constructor(source: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.source = source;
  }
}

/** The input is not something a loader can read (wrong type, bad option, unusable value). */
export class InvalidInputError extends LoaderInputError {}

/** A file path does not exist. */
export class SourceNotFoundError extends LoaderInputError {
  constructor(path: string, options?: { cause?: unknown }) {
    super(path, `File not found: ${path}`, options);
  }
}

/** A file exists but could not be read (a directory, no permission, I/O error). */
export class SourceReadError extends LoaderInputError {}

/** The input is larger than the loader's `maxBytes` limit. */
export class SourceTooLargeError extends LoaderInputError {
  /** Size of the input in bytes. */
  readonly bytes: number;
  /** The limit it exceeded. */
  readonly maxBytes: number;

  /** @param message overrides the default message (e.g. for a compressed file's inflated size). */
  constructor(source: string, bytes: number, maxBytes: number, message?: string) {
    super(
      source,
      message ?? `${source} is ${bytes} bytes, over the ${maxBytes}-byte limit (maxBytes option)`,
    );
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}

/** The bytes are not the expected kind of content (binary data, not UTF-8 text, not a PDF…). */
export class UnsupportedContentError extends LoaderInputError {}

/** The input has no content to index (zero bytes or only whitespace). */
export class EmptyDocumentError extends LoaderInputError {
  constructor(source: string) {
    super(source, `${source} is empty: there is nothing to index`);
  }
}
