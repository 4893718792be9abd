/** Public API of the tree store (internals such as the value codec stay private). */
export { STORE_FORMAT_VERSION, type VerifyMode } from "./codec.js";
export { DocumentIdConflictError, StoreCorruptionError, StoreVersionError } from "./errors.js";
export { FileByteStore, type FileByteStoreOptions } from "./file-byte-store.js";
export {
  type DocumentListing,
  type DocumentQuery,
  PageIndexStore,
  type PageIndexStoreOptions,
  type VacuumResult,
} from "./page-index-store.js";
export { RedisByteStore, type RedisByteStoreOptions, type RedisCommandClient } from "./redis-byte-store.js";
