import type { LibraryIndex } from "../library/types.js";
import { warnProblem } from "../store/options.js";
import { PageIndexStore, type PageIndexStoreOptions } from "../store/page-index-store.js";
import { PostgresByteStore, type PostgresByteStoreOptions } from "./byte-store.js";
import {
  DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS,
  guarded,
  type PostgresQueryable,
  quotedSchema,
  schemaFromUrl,
  withOpenedPool,
} from "./connection.js";
import { PostgresLibraryIndex, type PostgresLibraryIndexOptions } from "./library-index.js";
import {
  findUnvacuumedTables,
  MAINTENANCE_WARNING_PAGES,
  PostgresMaintenanceWarning,
} from "./library-maintenance.js";

/** Options of {@link openPostgresStore}: the store's, the connection's and the library index's. */
export type PostgresStoreOptions = PageIndexStoreOptions &
  PostgresByteStoreOptions &
  PostgresLibraryIndexOptions & {
    /**
     * Tables of at least this many pages that no vacuum has marked mostly all-visible are
     * reported on open, through `onProblem`, as a {@link PostgresMaintenanceWarning} (default
     * 1,000 pages, 8 MB; 0 skips the check).
     */
    maintenanceWarningPages?: number;
  };

/**
 * Opens a {@link PageIndexStore} whose trees and library index live in one PostgreSQL database
 * (schema `options.schema`, else the URL's `?schema=` parameter, else `"pageindex"`; created when
 * absent), through one connection pool that `store.close()` ends. Needs the optional peer
 * dependency `pg`.
 * A library whose tables need a `VACUUM (ANALYZE)` (after a server crash or a bulk import) is
 * reported through `onProblem` as a {@link PostgresMaintenanceWarning}; it opens all the same.
 * @throws {PostgresStoreError} when `pg` is not installed or the server cannot be reached (the
 * message names the URL without its password).
 * @example
 * ```ts
 * const store = await openPostgresStore("postgres://app:secret@db.example:5432/docs");
 * await store.addTree(tree);
 * const hits = await store.searchDocuments("toner smudges on the paper");
 * await store.close();
 * ```
 */
export async function openPostgresStore(
  url: string,
  storeOptions: PostgresStoreOptions = {},
): Promise<PageIndexStore> {
  const fromUrl = schemaFromUrl(url);
  const schema = storeOptions.schema ?? fromUrl.schema;
  const options = schema === undefined ? storeOptions : { ...storeOptions, schema };
  quotedSchema(options.schema);
  return withOpenedPool(fromUrl.url, options, async (pool) => {
    const byteStore = await PostgresByteStore.open(pool, options);
    const library: LibraryIndex = await PostgresLibraryIndex.open(pool, options);
    const store = new PageIndexStore(byteStore, { ...options, library });
    // A killed writer's published documents are searchable from this open on.
    await store.indexPublishedIntents();
    await reportUnvacuumed(pool, options);
    const close = store.close.bind(store);
    store.close = async () => {
      try {
        await close();
      } finally {
        await pool.end().catch(() => undefined);
      }
    };
    return store;
  });
}

async function reportUnvacuumed(db: PostgresQueryable, options: PostgresStoreOptions): Promise<void> {
  const minPages = options.maintenanceWarningPages ?? MAINTENANCE_WARNING_PAGES;
  if (minPages <= 0) return;
  const schema = quotedSchema(options.schema);
  const timeout = Math.max(0, options.commandTimeoutMs ?? DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS);
  const tables = await guarded("library open", timeout, () => findUnvacuumedTables(db, schema, minPages));
  if (tables.length === 0) return;
  (options.onProblem ?? warnProblem)(new PostgresMaintenanceWarning(schema, tables));
}
