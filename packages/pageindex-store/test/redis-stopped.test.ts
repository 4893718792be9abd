/**
 * Fault suite, Redis dying after connect: with the server stopped (or hung) mid-run, reads and
 * writes fail within the command timeout with a RedisStoreTimeoutError instead of waiting forever.
 * Runs its own redis-server (skipped, with a message, when there is none on PATH).
 */
import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { PageIndexStore, RedisStoreError, RedisStoreTimeoutError, StoreReadOnlyError } from "../src/index.js";
import { freePort, hasRedisServer, startRedis } from "./helpers/redis-server.js";
import { makeTree } from "./helpers/trees.js";

const available = hasRedisServer("redis-stopped.test.ts");
const TIMEOUT_MS = 800;

describe.skipIf(!available)("Redis stopped after connect", () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill("SIGKILL");
    server = undefined;
  });

  it.each([
    ["stopped (connection refused, the client reconnecting)", "SIGKILL"],
    ["hung (connection open, no answer)", "SIGSTOP"],
  ] as const)(
    "server %s: reads and writes fail within the timeout with a typed error",
    async (_name, signal) => {
      const port = await freePort();
      server = await startRedis(port);
      const store = await PageIndexStore.fromRedis(`redis://127.0.0.1:${port}`, {
        commandTimeoutMs: TIMEOUT_MS,
        prefix: "stopped:",
      });
      const tree = makeTree("doc", { nodes: 12 });
      await store.addTree(tree);
      expect(await store.getTree("doc")).toEqual(tree);

      server.kill(signal);
      for (const call of [
        () => store.getTree("doc"),
        () => store.addTree(makeTree("other", { nodes: 3 })),
        () => store.listDocuments(),
      ]) {
        const started = performance.now();
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        // Stopped: the lost socket fails the call at once; hung: the command timeout does.
        expect(error).toBeInstanceOf(signal === "SIGSTOP" ? RedisStoreTimeoutError : RedisStoreError);
        expect((error as Error).message).toMatch(
          /did not answer \w+ within 800 ms|Redis connection lost during/,
        );
        // Bounded, not waiting forever nor retrying on and on: a few 0.8 s command timeouts
        // take under a minute even on a loaded machine (a hang bound, not a speed check).
        expect(performance.now() - started).toBeLessThan(60_000);
      }
      const closing = performance.now();
      await store.close();
      expect(performance.now() - closing).toBeLessThan(60_000);
    },
  );

  it("a read-only replica: writes fail with StoreReadOnlyError, reads work", async () => {
    const port = await freePort();
    server = await startRedis(port);
    const primary = await PageIndexStore.fromRedis(`redis://127.0.0.1:${port}`, { prefix: "ro:" });
    const tree = makeTree("doc", { nodes: 6 });
    await primary.addTree(tree);
    const replicaPort = await freePort();
    const replicaServer = await startRedis(replicaPort, ["--replicaof", "127.0.0.1", String(port)]);
    try {
      const replica = await PageIndexStore.fromRedis(`redis://127.0.0.1:${replicaPort}`, { prefix: "ro:" });
      // The replica syncs: as long as it takes on a loaded machine (a LOADING reply while it
      // loads the primary's snapshot counts as not yet), up to 150 s (a hang bound).
      const synced = () => replica.hasDocument("doc").catch(() => false);
      for (const deadline = Date.now() + 150_000; !(await synced()) && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await replica.getTree("doc")).toEqual(tree);
      await expect(replica.addTree(makeTree("new", { nodes: 2 }))).rejects.toBeInstanceOf(StoreReadOnlyError);
      await replica.close();
    } finally {
      replicaServer.kill("SIGKILL");
      await primary.close();
    }
  });
});
