/**
 * Fault suite: Redis hung after connect. A query over the store ends within a few command
 * timeouts with the store's typed error, instead of waiting forever.
 */
import type { ChildProcess } from "node:child_process";
import { createTree } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore, RedisStoreError } from "pageindex-store";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, hasRedisServer, startRedis } from "../../pageindex-store/test/helpers/redis-server.js";

const available = hasRedisServer("retriever redis-stopped.test.ts");
const TIMEOUT_MS = 800;

describe.skipIf(!available)("a query when Redis stops answering", () => {
  let server: ChildProcess | undefined;
  afterEach(() => {
    server?.kill("SIGKILL");
  });

  it("invoke() fails with a RedisStoreError instead of waiting for the stopped server", async () => {
    const port = await freePort();
    server = await startRedis(port);
    const store = await PageIndexStore.fromRedis(`redis://127.0.0.1:${port}`, {
      commandTimeoutMs: TIMEOUT_MS,
    });
    const build = { loader: "test", structure: "headings" as const };
    await store.addTree(
      createTree({ docId: "kettle", docName: "kettle.md", kind: "markdown", build }, [
        { title: "Descaling", text: "Descale the kettle with citric acid." },
        { title: "Storage", text: "Store the kettle dry." },
      ]),
    );
    const retriever = new PageIndexRetriever({ reader: store, k: 1 });
    expect((await retriever.invoke("descale")).length).toBe(1);

    server.kill("SIGSTOP");
    const fresh = new PageIndexRetriever({ reader: store, k: 1 }); // nothing cached on its side
    // Without command timeouts this would wait forever (the test's own timeout catches that);
    // how fast it fails depends on the machine, so it is not asserted.
    await expect(fresh.invoke("how to store it")).rejects.toBeInstanceOf(RedisStoreError);
    await store.close();
  });
});
