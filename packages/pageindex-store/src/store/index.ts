/** Public API of the tree store (internals such as the value codec stay private). */
export { type AddTreesOptions, DuplicateBatchDocumentError } from "./batch-write.js";
export { STORE_FORMAT_VERSION, type VerifyMode } from "./codec.js";
export { type CreateIfAbsentStore, hasCreateIfAbsent } from "./create-if-absent.js";
export { registerDerivedArtifact } from "./derived.js";
export {
  DocumentIdConflictError,
  RedisStoreConnectionError,
  RedisStoreError,
  RedisStoreTimeoutError,
  StoreCorruptionError,
  StoreReadConflictError,
  StoreReadError,
  StoreReadOnlyError,
  StoreVersionError,
  StoreWriteError,
} from "./errors.js";
export { DEFAULT_MAX_VALUE_BYTES, FileByteStore, type FileByteStoreOptions } from "./file-byte-store.js";
export {
  type DocIdReservation,
  type DocumentListing,
  type DocumentQuery,
  PageIndexStore,
  type PageIndexStoreOptions,
  type VacuumResult,
} from "./page-index-store.js";
export {
  DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
  RedisByteStore,
  type RedisByteStoreOptions,
  type RedisCommandClient,
} from "./redis-byte-store.js";
