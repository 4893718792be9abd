import { createHash } from "node:crypto";
import { InvalidIdError } from "./errors.js";
import { ID_PATTERN } from "./model/schema.js";

const MAX_ID_LENGTH = 120;

/**
 * Derives a document id from a name or path: keeps `[A-Za-z0-9_.-]`, turns everything else
 * into `-`, and never yields `.`/`..` or a leading dot, so the id cannot escape a store's
 * root as a key or a file name. Over-long names keep a hash suffix to stay unique.
 */
export function toDocId(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  let id = base
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .replace(/[.-]+$/, "");
  if (id.length > MAX_ID_LENGTH) {
    const hash = createHash("sha256").update(name).digest("hex").slice(0, 10);
    id = `${id.slice(0, MAX_ID_LENGTH - 11)}-${hash}`;
  }
  if (!id) id = `doc-${createHash("sha256").update(name).digest("hex").slice(0, 12)}`;
  return id;
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
