import { RunnableLambda } from "@langchain/core/runnables";
import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { annualReport, ID, judgeByTitle, TAX_PATH } from "./support/fixtures.js";

const rejection = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("cancelling a query with invoke(query, { signal })", () => {
  it("rejects at once with the signal's reason and aborts the call in flight", async () => {
    const model = new ScriptedChatModel([{ hang: true }], { fallback: judgeByTitle(TAX_PATH) });
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model,
      timeoutMs: 30_000,
      backoffMs: 1,
    });
    const controller = new AbortController();
    const query = retriever.invoke("effective tax rate", { signal: controller.signal });
    // Aborted once the hanging call is in flight, however long a loaded machine takes to get there.
    while (model.calls < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = (await rejection(query)) as Error;
    expect(error?.name).toBe("AbortError");
    // The hanging call saw the abort: no retry and no next level follow it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.calls).toBe(1);
  });

  it("makes no call for a signal that has already fired, and reaches the retriever through a chain", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const retriever = new PageIndexRetriever({ trees: [annualReport()], model, backoffMs: 1 });
    const error = (await rejection(retriever.invoke("tax", { signal: AbortSignal.abort() }))) as Error;
    expect(error?.name).toBe("AbortError");
    expect(model.calls).toBe(0);

    const chain = RunnableLambda.from((q: string) => q).pipe(retriever);
    const controller = new AbortController();
    const running = chain.invoke("tax", { signal: controller.signal });
    controller.abort(new Error("user left"));
    expect(((await rejection(running)) as Error)?.message).toMatch(/user left|abort/i);
  });

  it("answers as usual with a signal that never fires", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const retriever = new PageIndexRetriever({ trees: [annualReport()], model, backoffMs: 1 });
    const docs = await retriever.invoke("effective tax rate", { signal: new AbortController().signal });
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
  });

  it("honours a timeout given to invoke or through withConfig (LangChain's own option)", async () => {
    for (const call of [
      (r: PageIndexRetriever) => r.invoke("effective tax rate", { timeout: 100 }),
      (r: PageIndexRetriever) => r.withConfig({ timeout: 100 }).invoke("effective tax rate"),
    ]) {
      const model = new ScriptedChatModel([{ hang: true }], { fallback: judgeByTitle(TAX_PATH) });
      const retriever = new PageIndexRetriever({ trees: [annualReport()], model, timeoutMs: 30_000 });
      const started = Date.now();
      const error = (await rejection(call(retriever))) as Error;
      // The hanging call would hold the query for timeoutMs (30 s) without the option; the
      // margin below that is for a loaded machine.
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(error).toBeInstanceOf(Error);
      expect(model.calls).toBe(1);
    }
  });
});
