/** Public API of the tree store (internals such as the value codec stay private). */
export { type AddTreesOptions, DuplicateBatchDocumentError } from "./batch-write.js";
export { STORE_FORMAT_VERSION, type VerifyMode } from "./codec.js";
export { DocumentIdConflictError, StoreCorruptionError, StoreVersionError } from "./errors.js";
export { FileByteStore, type FileByteStoreOptions } from "./file-byte-store.js";
export {
  KeyLayout,
  MAX_STORE_DOC_ID_LENGTH,
  MAX_STORE_KEY_LENGTH,
  maxDocIdLength,
  type ParsedPendingKey,
  type ParsedVersionKey,
} from "./keys.js";
export {
  type DocumentListing,
  type DocumentQuery,
  PageIndexStore,
  type PageIndexStoreOptions,
  type VacuumResult,
} from "./page-index-store.js";
export { RedisByteStore, type RedisByteStoreOptions, type RedisCommandClient } from "./redis-byte-store.js";
