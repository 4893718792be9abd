import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main, quotingStandIn, STAND_IN_LABEL } from "./rag-chain-swap.js";
import { ANNUAL_REPORT, MANUAL, SAMPLES_DIR } from "./support.js";

describe("examples/rag-chain-swap", () => {
  it("runs the same chain with a vector, a PageIndex and an ensemble retriever, offline", async () => {
    const lines: string[] = [];
    const out = await main({ env: {}, log: (line) => lines.push(line), sample: MANUAL });
    expect(out.answerer).toBe("offline stand-in");
    expect(out.runs.map((r) => r.name)).toEqual([
      "vector (MemoryVectorStore)",
      "PageIndexRetriever",
      "EnsembleRetriever (vector + PageIndex)",
    ]);
    const [vector, pageIndex, ensemble] = out.runs;
    // PageIndex puts the TLS section (which holds the rotation procedure) first.
    expect(pageIndex?.sources[0]).toMatch(/4\.2 TLS certificates/);
    expect(pageIndex?.answer.startsWith(STAND_IN_LABEL)).toBe(true);
    expect(pageIndex?.answer).toMatch(/TLS certificates/);
    expect(vector?.sources.length).toBe(4);
    expect(
      vector?.sources.some((s) => /Rotating certificates without downtime \(lines \d+-\d+\)/.test(s)),
    ).toBe(true);
    // The ensemble fuses both lists: everything either retriever found, nothing else.
    const union = new Set([...(vector?.sources ?? []), ...(pageIndex?.sources ?? [])]);
    expect(new Set(ensemble?.sources)).toEqual(union);
    const printed = lines.join("\n");
    expect(printed).toContain(`Answering model: ${STAND_IN_LABEL}`);
    expect(printed).toContain("HashingEmbeddings (offline lexical stand-in");
    expect(printed).toContain(`Question: ${MANUAL.question}`);
  });

  it.skipIf(!existsSync(join(SAMPLES_DIR, ANNUAL_REPORT.file)))(
    "cites pages of the PDF annual report",
    async () => {
      const out = await main({ env: {}, log: () => {}, sample: ANNUAL_REPORT });
      for (const run of out.runs) {
        expect(run.sources[0]).toMatch(
          /Item 7\. Management's Discussion and Analysis › Gross Margin \(page 6\)$/,
        );
        expect(run.answer).toContain("Gross margin rose to 44.6 %");
      }
    },
  );

  it("the stand-in answerer says so when nothing was retrieved", async () => {
    const answer = await quotingStandIn().invoke("System: no sources\nHuman: hello?");
    expect(answer).toBe(`${STAND_IN_LABEL} (no sources were retrieved)`);
  });
});
