import { DocumentNotFoundError, PageIndexError, TreeValidationError } from "pageindex-core/errors";
import { isModelCallError } from "./model-errors.js";

/** Exit codes a shell user can branch on. */
export const EXIT = {
  ok: 0,
  /** Anything unexpected. */
  failure: 1,
  /**
   * Bad usage or input: unknown option, missing file, unsupported, damaged or textless file,
   * unknown document.
   */
  usage: 2,
  /** The store cannot be opened or read. */
  store: 3,
  /** The model could not be built or called. */
  model: 4,
} as const;

/** An error the CLI reports as one line with a chosen exit code. */
export class CliError extends PageIndexError {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.usage, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** Maps library errors to exit codes by kind (names, so both ESM and CJS copies match). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  const name = (error as Error)?.name ?? "";
  if (error instanceof DocumentNotFoundError || error instanceof TreeValidationError) return EXIT.usage;
  if (
    /^(SourceNotFound|SourceRead|SourceTooLarge|FileRead|UnsupportedContent|EmptyDocument|InvalidInput|NotAPdf|PdfPassword|PdfCorrupt|PdfEmpty|PdfNoText|Encrypted|InvalidId|QuestionsFile)/.test(
      name,
    )
  ) {
    return EXIT.usage;
  }
  if (/^(Store|RedisStore|LibraryIndex|Postgres)/.test(name)) return EXIT.store;
  if (/^(ModelSpec|ModelAnswer|ModelCall)/.test(name) || isModelCallError(error)) return EXIT.model;
  return EXIT.failure;
}

/** Where the CLI writes: injectable so tests can capture output without a child process. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  isTTY: boolean;
}

/** Escape sequences: CSI (`ESC [ … final`), OSC / DCS / PM / APC strings (to BEL or `ESC \`), and two-byte escapes. */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)|\x1b[\s\S]?|\x9b[0-?]*[ -/]*[@-~]/g;
/**
 * Other control characters (tab and newline excepted), C1 controls, the line and paragraph
 * separators, and bidi marks and overrides that reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Everything that can end a line on a terminal or in a log viewer. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
const ESCAPED_BREAKS: Record<string, string> = {
  "\r\n": "\\r\\n",
  "\n": "\\n",
  "\r": "\\r",
  "\v": "\\v",
  "\f": "\\f",
  "\u0085": "\\u0085",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * A name or text as part of one terminal line: every line break and separator (LF, CR, VT, FF,
 * NEL, U+2028, U+2029) shown escaped (`\n`), so a file named `a⏎error: forged.md` cannot print a
 * line of its own. For human output only; JSON output keeps the exact text.
 */
export function printable(text: string): string {
  return text.replace(LINE_BREAKS, (found) => ESCAPED_BREAKS[found] ?? "\uFFFD");
}

/**
 * Text as it may reach a terminal: document titles, descriptions, texts and file names are
 * data, and a hostile one must not retitle, clear or rewrite the user's terminal. Escape
 * sequences are removed; other control characters shown as U+FFFD.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPES, "").replace(CONTROLS, "\uFFFD");
}

const line = (text: string) => {
  const safe = terminalSafe(text);
  return safe.endsWith("\n") ? safe : `${safe}\n`;
};

export const processIo: Io = {
  out: (text) => process.stdout.write(line(text)),
  err: (text) => process.stderr.write(line(text)),
  isTTY: Boolean(process.stderr.isTTY),
};

/** Prints a value as JSON (for `--json`) with a trailing newline. */
export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** What `--json` prints on stderr when a command fails (stdout stays for results only). */
export interface JsonError {
  error: { message: string; exitCode: number; type: string };
}

/**
 * Reports a failed command: `error: <message>` on stderr, or with `--json` one line of
 * {@link JsonError} JSON on stderr, so scripts parse stdout for results and stderr for failures.
 */
export function printError(io: Io, message: string, exitCode: number, json: boolean, type = "Error"): void {
  if (!json) {
    io.err(`error: ${message}`);
    return;
  }
  const value: JsonError = { error: { message, exitCode, type } };
  io.err(JSON.stringify(value));
}

/** "1 section", "3 sections". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
