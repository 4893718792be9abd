import { createClient } from "redis";

/** The Redis URL tests use: `PAGEINDEX_TEST_REDIS_URL`, else a local default. */
export const REDIS_URL = process.env.PAGEINDEX_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis server answers at {@link REDIS_URL}; warns visibly when not. */
export async function redisReachable(suite: string): Promise<boolean> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 1500, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return true;
  } catch (error) {
    try {
      client.destroy();
    } catch {
      // already closed
    }
    console.warn(
      `[${suite}] SKIPPED: no Redis server at ${REDIS_URL} (${(error as Error).message}). ` +
        "Start one (redis-server --port 6379 --bind 127.0.0.1 --save '' --daemonize yes) or set PAGEINDEX_TEST_REDIS_URL.",
    );
    return false;
  }
}

/** A unique key prefix so parallel test files never share keys. */
export function testPrefix(label: string): string {
  return `pageindex-test:${label}:${process.pid}:${Math.random().toString(16).slice(2, 10)}:`;
}
