// A layout tree whose evidence disagrees (chapters titled "ONE", "TWO") says so where a shell user
// looks: `pageindex index` prints the low-confidence warning naming the doubt (issue 26).
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body, buildPdf, type PageSpec } from "../../packages/pageindex-loader/test/fixtures/pdf-builder.js";
import { BIN, cli } from "./run-cli.js";

describe.skipIf(!existsSync(BIN))("pageindex index: layout warnings", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-layout-warning-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("warns, naming the doubt, when the chapters are bare words; a plain manual gets no warning", async () => {
    const words = ["ONE", "TWO", "THREE", "FOUR"];
    const bare: PageSpec[] = words.map((name, i) => ({
      lines: [
        { text: name, size: 20, bold: true, gap: 12 },
        ...body(12, i),
        { text: `Details of part ${i + 1}`, size: 13, bold: true, gap: 12 },
        ...body(10, i + 20),
      ],
    }));
    const plain: PageSpec[] = ["Introduction", "Installation", "Usage", "Reference"].map((name, i) => ({
      lines: [
        { text: `${i + 1} ${name}`, size: 20, bold: true, gap: 12 },
        ...body(12, i),
        { text: `${i + 1}.1 Details of ${name.toLowerCase()}`, size: 13, bold: true, gap: 12 },
        ...body(10, i + 20),
      ],
    }));
    await writeFile(join(dir, "bare.pdf"), await buildPdf({ pages: bare }));
    await writeFile(join(dir, "plain.pdf"), await buildPdf({ pages: plain }));
    const store = join(dir, "store");
    const run = (file: string) =>
      cli(["--store", store, "index", join(dir, file), "--structure", "layout", "--summaries", "none"]);

    const warned = await run("bare.pdf");
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/warning: .*low confidence/);
    expect(warned.stderr).toMatch(/bare words/);

    // A card whose lines merge columns and whose chapters are bare words: both reasons are printed.
    const row = (i: number) => ({ text: "", cells: [0, 1, 2].map((c) => `plot edit ${i} save ${c} load`) });
    const card: PageSpec[] = words.slice(0, 3).map((name) => ({
      lines: [{ text: name, size: 14, bold: true, gap: 12 }, ...Array.from({ length: 30 }, (_, i) => row(i))],
    }));
    await writeFile(join(dir, "card.pdf"), await buildPdf({ pages: card }));
    const both = await run("card.pdf");
    expect(both.code).toBe(0);
    expect(both.stderr).toMatch(
      /low confidence .*lines merge several columns.*evidence disagrees.*bare words/,
    );

    // Sections whose chapters' headings were missed ("1.1", "1.2", "2.1" at the top level).
    const orphans: PageSpec[] = ["1.1 Installing", "1.2 Running", "2.1 Options", "2.2 Files"].map(
      (title, i) => ({
        lines: [{ text: title, size: 16, bold: true, gap: 12 }, ...body(14, i)],
      }),
    );
    await writeFile(join(dir, "orphans.pdf"), await buildPdf({ pages: orphans }));
    const sections = await run("orphans.pdf");
    expect(sections.code).toBe(0);
    expect(sections.stderr).toMatch(
      /low confidence .*evidence disagrees.*numbered as sections .*no chapter above them/,
    );

    const quiet = await run("plain.pdf");
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toContain("structure from layout");
    expect(quiet.stderr).not.toMatch(/low confidence/);
  });
});
