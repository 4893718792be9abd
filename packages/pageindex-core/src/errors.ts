/** One problem found in a tree, with where it is. */
export interface TreeIssue {
  /** Where the problem is, e.g. `nodes[3].childIds[1]` or `node 0004`. */
  path: string;
  message: string;
}

/** Base class of every error this package throws, so callers can catch them as one. */
export class PageIndexError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A tree (or PageIndex JSON) is malformed: bad JSON, missing fields, cycles, dangling ids. */
export class TreeValidationError extends PageIndexError {
  /** Every problem found, not only the first. */
  readonly issues: TreeIssue[];
  /** The document the tree claims to be, when that much could be read. */
  readonly docId?: string;

  constructor(issues: TreeIssue[], context?: { docId?: string; source?: string }) {
    const where = context?.source ?? (context?.docId ? `document "${context.docId}"` : "tree");
    const shown = issues
      .slice(0, 10)
      .map((i) => `  - ${i.path}: ${i.message}`)
      .join("\n");
    const more = issues.length > 10 ? `\n  … and ${issues.length - 10} more` : "";
    super(`Invalid ${where}: ${issues.length} problem(s)\n${shown}${more}`);
    this.issues = issues;
    if (context?.docId !== undefined) this.docId = context.docId;
  }
}

/** A document id (or other key part) is unusable even after sanitising. */
export class InvalidIdError extends PageIndexError {}
