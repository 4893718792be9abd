/**
 * Fault suite, Redis dying after connect: with the server stopped (or hung) mid-run, reads and
 * writes fail within the command timeout with a RedisStoreTimeoutError instead of waiting forever.
 * Runs its own redis-server (skipped, with a message, when there is none on PATH).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PageIndexStore, RedisStoreError, RedisStoreTimeoutError } from "../src/index.js";
import { makeTree } from "./helpers/trees.js";

function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    console.warn("[redis-stopped.test.ts] SKIPPED: no redis-server on PATH (apt-get install redis-server)");
    return false;
  }
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a private redis-server and resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (data: string) => {
      out += data;
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}

const available = hasRedisServer();
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
        // Bounded: a few commands' timeouts at most (a failed write's cleanup tries once more).
        expect(performance.now() - started).toBeLessThan(6 * TIMEOUT_MS);
      }
      const closing = performance.now();
      await store.close();
      expect(performance.now() - closing).toBeLessThan(3 * TIMEOUT_MS);
    },
  );
});
