/** Public API of the PostgreSQL backend (trees and library index in one database). */
export { PostgresByteStore, type PostgresByteStoreOptions } from "./byte-store.js";
export {
  DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS,
  DEFAULT_POSTGRES_SCHEMA,
  type PostgresConnectionOptions,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryable,
  type PostgresRow,
  redactPostgresUrl,
} from "./connection.js";
export { PostgresStoreConnectionError, PostgresStoreError, PostgresStoreTimeoutError } from "./errors.js";
export { PostgresLibraryIndex, type PostgresLibraryIndexOptions } from "./library-index.js";
export {
  findUnvacuumedTables,
  MAINTENANCE_WARNING_PAGES,
  PostgresMaintenanceWarning,
  type UnvacuumedTable,
} from "./library-maintenance.js";
export { openPostgresStore, type PostgresStoreOptions } from "./open-store.js";
