import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main, SCRIPTED_LABEL } from "./agent.js";
import { ANNUAL_REPORT, MANUAL, SAMPLES_DIR } from "./support.js";

describe("examples/agent", () => {
  it("drives the real PageIndex tools with the scripted stand-in, offline", async () => {
    const lines: string[] = [];
    const out = await main({ env: {}, log: (line) => lines.push(line), sample: MANUAL });
    expect(out.driver).toBe("scripted stand-in");
    expect(out.toolCalls.map((c) => c.name)).toEqual([
      "list_documents",
      "search_sections",
      "get_node_content",
    ]);
    // The search really ran: its artifact cites the TLS section of the manual.
    expect(out.citations[0]?.docName).toBe("tiller-operator-manual.md");
    expect(out.citations[0]?.path.join(" > ")).toMatch(/Security > 4\.2 TLS certificates/);
    // The section was opened by the ids the search returned, and the answer quotes what it read.
    const opened = out.toolCalls[2]?.args as { docId: string; nodeIds: string[] };
    expect(opened.nodeIds[0]).toBe(out.citations[0]?.nodeId);
    expect(out.answer.startsWith(SCRIPTED_LABEL)).toBe(true);
    expect(out.answer).toContain("tillerctl tls reload");
    expect(lines.join("\n")).toContain("→ search_sections(");
  });

  it.skipIf(!existsSync(join(SAMPLES_DIR, ANNUAL_REPORT.file)))(
    "answers from the PDF annual report",
    async () => {
      const out = await main({ env: {}, log: () => {}, sample: ANNUAL_REPORT });
      expect(out.citations[0]).toMatchObject({ title: "Gross Margin", startPage: 6, endPage: 6 });
      expect(out.answer).toContain("tariffs took away 1.5 points");
    },
  );
});
