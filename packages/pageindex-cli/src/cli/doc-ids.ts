import { createHash } from "node:crypto";
import { basename, extname, resolve } from "node:path";
import { type DocumentInfo, ID_PATTERN, PageIndexError, toDocId } from "pageindex-core";
import type { PageIndexStore } from "pageindex-store";
import { CliError } from "./output.js";

/** What the store holds under an id: nothing, a readable document, or one that cannot be read. */
export type StoredState =
  | { status: "absent" }
  | { status: "stored"; info: DocumentInfo }
  | { status: "unreadable"; error: Error };

/** Reads a document's list entry without throwing for a corrupt one (a re-index repairs it). */
export async function storedState(store: PageIndexStore, docId: string): Promise<StoredState> {
  try {
    const info = await store.getDocumentInfo(docId);
    return info ? { status: "stored", info } : { status: "absent" };
  } catch (error) {
    if (error instanceof PageIndexError) return { status: "unreadable", error };
    throw error;
  }
}

/** The id a file gets, and the document holding the plain file-name id when that one is taken. */
export interface FileDocId {
  docId: string;
  state: StoredState;
  /** Set when the file-name id belongs to another source and a path-derived id is used instead. */
  taken?: { docId: string; source: string };
}

/**
 * `notes.md` + a path → `notes-1a2b3c4d.md` (`notes.md.gz` → `notes-1a2b3c4d.md.gz`): the
 * extension stays last so the id still reads as a file.
 */
export function pathDerivedId(id: string, path: string): string {
  const hash = createHash("sha256").update(resolve(path)).digest("hex").slice(0, 8);
  const ext = /\.[^.]+\.gz$/i.exec(id)?.[0] ?? extname(id);
  return toDocId(`${id.slice(0, id.length - ext.length)}-${hash}${ext}`);
}

/**
 * The document id of an indexed file: its file name, unless a document from another source
 * already holds that id — then the name plus a hash of the resolved path, the same on every
 * run, so `a/notes.md` and `b/notes.md` both stay indexed and both are skipped when unchanged.
 * A file already stored under its path-derived id keeps it. An unreadable document under the name
 * id is replaced (re-indexing repairs it).
 *
 * A free name id is reserved for the file's path first (`reserveDocId`, create-if-absent, atomic
 * across processes on the folder and Redis stores), so two processes indexing different files
 * that share a name cannot both take it: the one that loses uses the path-derived id.
 *
 * Reads at most two heads, whatever the store holds: an unchanged file is recognised without
 * listing documents. An id that differs only in letter case from a stored one (`Report.pdf`
 * beside `report.pdf`) is not detected here: `addTree` refuses it with a
 * `DocumentIdConflictError`, and the caller retries with {@link pathDerivedId}.
 */
export async function docIdForFile(store: PageIndexStore, file: string): Promise<FileDocId> {
  const path = resolve(file);
  const docId = toDocId(basename(path));
  const state = await storedState(store, docId);
  if (state.status === "stored" && state.info.source === path) return { docId, state };
  // Once given the path-derived id, a file keeps it (even after the name id is freed), so a
  // re-index replaces that document rather than storing a second copy under the name id.
  const alternative = pathDerivedId(docId, path);
  const own = await storedState(store, alternative);
  const keepsAlternative = own.status === "stored" && own.info.source === path;
  const holder =
    state.status === "stored" ? { docId, source: state.info.source ?? state.info.docName } : undefined;
  if (!holder && !keepsAlternative) {
    const claim = await store.reserveDocId(docId, path);
    if (claim.reserved) return { docId, state };
    return { docId: alternative, state: own, taken: { docId, source: claim.owner } };
  }
  return { docId: alternative, state: own, ...(holder ? { taken: holder } : {}) };
}

const describe = (d: DocumentInfo) => `${d.docId}${d.source ? ` (${d.source})` : ""}`;

/**
 * Resolves a document given by exact id, exact name or exact source path — never by a
 * substring, so `rm pdf` cannot delete `report.pdf`.
 * @throws {CliError} (exit 2) for an unknown reference (with near matches as suggestions) or one
 * naming several documents (listing them).
 */
export async function resolveDocId(store: PageIndexStore, ref: string): Promise<string> {
  if (ID_PATTERN.test(ref) && (await store.hasDocument(ref))) return ref;
  const { documents } = await store.inspectDocuments();
  const path = resolve(ref);
  const matches = documents.filter((d) => d.docName === ref || d.source === ref || d.source === path);
  if (matches.length === 1) return (matches[0] as DocumentInfo).docId;
  if (matches.length > 1) {
    throw new CliError(
      `"${ref}" names several documents: ${matches.map(describe).join(", ")}; give the id instead`,
    );
  }
  const lower = ref.toLowerCase();
  const near = documents.filter(
    (d) => d.docId.toLowerCase().includes(lower) || d.docName.toLowerCase().includes(lower),
  );
  const hint = near.length > 0 ? `; did you mean ${near.slice(0, 5).map(describe).join(", ")}?` : "";
  throw new CliError(`No document "${ref}" in the store${hint} (see: pageindex list)`);
}

/**
 * Resolves every reference before anything acts on them, so a typo among several fails the whole
 * command instead of half-running it. Duplicates collapse.
 * @throws {CliError} naming every reference that failed.
 */
export async function resolveDocIds(store: PageIndexStore, refs: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  const problems: string[] = [];
  for (const ref of refs) {
    try {
      ids.push(await resolveDocId(store, ref));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length === 1) throw new CliError(problems[0] as string);
  if (problems.length > 1) throw new CliError(problems.join("\n"));
  return [...new Set(ids)];
}
