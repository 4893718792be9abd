/**
 * Shared PDF types used by the structure paths (outline, layout, LLM).
 */

/** One physical page of a PDF, with its extracted text. */
export interface PdfPage {
  /** 1-based physical page number. */
  pageNumber: number;
  /** The page's text, lines separated by "\n". */
  text: string;
  /** Token count of `text` (js-tiktoken, same encoder as the tree model). */
  tokenCount: number;
}

/** One visual line of a page, with the style facts heading detection needs. */
export interface PdfLine {
  /** Text of the line; runs far apart on the line are separated by a tab. */
  text: string;
  /** Dominant font size (points), by characters. */
  size: number;
  /** Largest font size on the line (small caps and superscripts make it differ from `size`). */
  maxSize: number;
  /** Most characters are set in a bold (or semibold, black) font. */
  bold: boolean;
  /** Most characters are set in an italic font. */
  italic: boolean;
  /** Left edge (PDF user space). */
  x: number;
  /** Baseline (PDF user space: larger is higher on the page). */
  y: number;
  /** Distance from the previous line's baseline to this one (points); from the page top for the first line. */
  gapBefore: number;
}

/** A page with its lines: what the layout and outline paths read. */
export interface ParsedPage extends PdfPage {
  lines: PdfLine[];
  /** Top of the page in user space (the y of the media box top). */
  top: number;
  height: number;
}

/** One bookmark, its destination resolved to a physical page. */
export interface OutlineEntry {
  title: string;
  /** 1-based physical page, or `undefined` when the destination could not be resolved. */
  page: number | undefined;
  /** Destination top (user space), when the destination gives one. */
  y?: number;
  children: OutlineEntry[];
}

/** A position in the document: a page and a line index on it. */
export interface PdfPosition {
  page: number;
  line: number;
}

/**
 * A section found by any structure path, before it becomes a tree node: nested, with the
 * page (and when known the line or destination y) where its heading is.
 */
export interface SectionEntry {
  title: string;
  page: number;
  /** Line index of the heading on its page, when known. */
  line?: number;
  /** Destination top in user space (outline), used to find the line when `line` is unknown. */
  y?: number;
  children: SectionEntry[];
}

/** Progress of a PDF load, reported through `onProgress`. */
export interface PdfProgressEvent {
  phase: "parse" | "structure" | "split" | "summarize" | "describe" | "done";
  pagesParsed: number;
  pageCount: number;
  llmCalls: number;
  /** Steps done within a phase that is not page parsing (structure steps, sections examined for splitting). */
  step?: number;
  /** Steps of that phase; with `step`, a progress bar can move in every phase. */
  steps?: number;
}
