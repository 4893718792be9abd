import type { LibraryIndex } from "../library/types.js";
import { PageIndexStore, type PageIndexStoreOptions } from "../store/page-index-store.js";
import { PostgresByteStore, type PostgresByteStoreOptions } from "./byte-store.js";
import { quotedSchema, schemaFromUrl, withOpenedPool } from "./connection.js";
import { PostgresLibraryIndex, type PostgresLibraryIndexOptions } from "./library-index.js";

/** Options of {@link openPostgresStore}: the store's, the connection's and the library index's. */
export type PostgresStoreOptions = PageIndexStoreOptions &
  PostgresByteStoreOptions &
  PostgresLibraryIndexOptions;

/**
 * Opens a {@link PageIndexStore} whose trees and library index live in one PostgreSQL database
 * (schema `options.schema`, else the URL's `?schema=` parameter, else `"pageindex"`; created when
 * absent), through one connection pool that `store.close()` ends. Needs the optional peer
 * dependency `pg`.
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
