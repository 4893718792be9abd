import { PageIndexError } from "pageindex-core";

/**
 * PostgreSQL could not serve a request of the store: unreachable, no answer in time, or the
 * connection is gone. Messages name the server's URL without its password.
 * @example
 * ```ts
 * try {
 *   const store = await openPostgresStore(process.env.DATABASE_URL ?? "");
 * } catch (error) {
 *   if (error instanceof PostgresStoreError) console.error("PostgreSQL is unavailable:", error.message);
 * }
 * ```
 */
export class PostgresStoreError extends PageIndexError {}

/** The server could not be reached, or the connection broke while a statement ran. */
export class PostgresStoreConnectionError extends PostgresStoreError {
  /** What was being done (`connect`, `mget`, `library search`…). */
  readonly operation: string;

  constructor(operation: string, reason: string, options?: { cause?: unknown }) {
    super(`PostgreSQL connection failed during ${operation}: ${reason}`, options);
    this.operation = operation;
  }
}

/** A statement got no answer within the store's command timeout. */
export class PostgresStoreTimeoutError extends PostgresStoreError {
  readonly operation: string;
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(
      `PostgreSQL did not answer ${operation} within ${timeoutMs} ms (server stopped, hung or unreachable; raise commandTimeoutMs for a slow server)`,
      options,
    );
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}
