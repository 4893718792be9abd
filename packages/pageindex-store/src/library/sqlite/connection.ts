// The connection types on their own, so modules that `open.ts` imports can name them without an
// import cycle.
import type Database from "libsql";

/** A libsql connection (better-sqlite3's API). */
export type Connection = Database.Database;
/** A prepared statement. */
export type Statement = Database.Statement;
