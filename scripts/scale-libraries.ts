// Where scripts/bench-library-scale.ts keeps the libraries it builds, for the scripts that
// measure them (profile-library-query.ts, profile-postgres-query.ts, trace-library-reads.ts).
import { homedir } from "node:os";
import { join } from "node:path";

/** Folder libraries: `<XDG_CACHE_HOME or ~/.cache>/pageindex-bench/scale`. */
export const SCALE_CACHE = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
  "pageindex-bench",
  "scale",
);

/** The folder library of `docs` documents. */
export const scaleFolder = (docs: number): string => join(SCALE_CACHE, `folder-${docs}`);

/** The PostgreSQL database holding the libraries, schema `scale_<docs>` each. */
export const SCALE_POSTGRES_URL =
  process.env.PAGEINDEX_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:55432/scale_bench";
