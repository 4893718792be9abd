import { createHash } from "node:crypto";
import { InvalidIdError } from "./errors.js";
import { ID_PATTERN } from "./model/schema.js";

const MAX_ID_LENGTH = 120;
/** Hex digits of the hash that keeps lossy ids apart: 32 bits, enough for one store's names. */
const HASH_CHARS = 8;
/** A letter or digit outside ASCII, which the `[A-Za-z0-9_.-]` alphabet cannot keep. */
const NON_ASCII_ALNUM = /(?!\p{ASCII})[\p{L}\p{N}]/u;
/** A file extension worth keeping readable at the end of the id (`.pdf`, `.md`). */
const EXTENSION = /^(.*[^.])(\.[A-Za-z0-9]{1,10})$/s;

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HASH_CHARS);
}

/** Keeps `[A-Za-z0-9_.-]`, turns other runs into `-`, and trims dots and dashes at both ends. */
function sanitise(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .replace(/[.-]+$/, "");
}

/**
 * Derives a document id from a name or path (its last segment): keeps `[A-Za-z0-9_.-]`, folds
 * accents (`é` → `e`), turns everything else into `-`, and never yields `.`/`..` or a leading
 * dot, so the id cannot escape a store's root as a key or a file name. ASCII names stay
 * readable and unchanged where already safe (`acme-annual-report-2025.pdf`).
 *
 * When sanitising loses letters (non-ASCII scripts, a hidden file's leading dot, a name with
 * nothing left) or the name is too long, a short hash of the base name keeps distinct names
 * apart: `日本語.pdf` → `doc-1a2b3c4d.pdf`, `.env` → `env-5e6f7a8b`. Names differing only in
 * their folder give the same id.
 */
export function toDocId(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const folded = base.normalize("NFKD").replace(/\p{M}/gu, "");
  const [, stem = folded, extension = ""] = EXTENSION.exec(folded) ?? [];
  const readable = sanitise(stem);
  const lossy = readable === "" || base.startsWith(".") || NON_ASCII_ALNUM.test(folded);
  const room = MAX_ID_LENGTH - extension.length;
  if (!lossy && readable.length <= room) return readable + extension;
  // NFC: the same name typed (NFC) or listed by macOS (NFD, e.g. Hangul as jamo) gets one id.
  const suffix = `-${shortHash(base.normalize("NFC"))}`;
  const kept = sanitise(readable.slice(0, room - suffix.length)) || "doc";
  return kept + suffix + extension;
}

/**
 * Checks that an id given by a caller is already safe to use as a key part.
 * @throws {InvalidIdError} naming the id and the rule it breaks.
 */
export function assertSafeId(id: string, what = "document id"): string {
  if (!ID_PATTERN.test(id)) {
    throw new InvalidIdError(
      `Invalid ${what} "${id}": use only A-Z a-z 0-9 _ . - and do not start with a dot (toDocId() derives one from any name)`,
    );
  }
  if (id.length > 200) throw new InvalidIdError(`Invalid ${what}: longer than 200 characters`);
  return id;
}
