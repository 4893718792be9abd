import { describe, expect, it } from "vitest";
import { heading, layoutTree } from "./fixtures/layout-tree.js";
import { body, type PageSpec } from "./fixtures/pdf-builder.js";

/** A page per heading: the heading, then body text. */
const pages = (titles: string[], size = 14): PageSpec[] =>
  titles.map((t, i) => ({ lines: [heading(t, size), ...body(10, i + 1)] }));

const titlesOf = async (spec: PageSpec[]): Promise<string[]> =>
  (await layoutTree(spec)).nodes.map((n) => n.title);

describe("headings named by a model, version or program", () => {
  it("keeps a styled numbered heading whose title is mostly digits ('1.2 ASN.1', '2.1 PDP-11', '2.2 K65')", async () => {
    const names = ["1 Introduction", "1.1 Scope", "1.2 ASN.1", "2 Targets", "2.1 PDP-11", "2.2 K65"];
    const found = await titlesOf(pages(names));
    for (const t of names) expect(found).toContain(t);
  });

  it("still drops a styled numbered line of figures ('2.3 1,234.5 kg 6,789.0 kg')", async () => {
    const spec = pages(["1 Introduction", "2 Results", "3 Outlook"]);
    spec[1]?.lines?.push(heading("2.3 1,234.5 kg 6,789.0 kg"), ...body(6, 9));
    expect(await titlesOf(spec)).toEqual(["1 Introduction", "2 Results", "3 Outlook"]);
  });

  it("reads a contents entry named by a model ('2.1 K65 .... 4') and places it though the body sets it plainly", async () => {
    const sections = ["1 Overview", "2 Targets", "2.1 K65", "2.2 Z80", "3 Usage"];
    const toc: PageSpec = {
      lines: [
        heading("Contents", 16),
        ...sections.map((t, i) => ({ text: `${t} ${".".repeat(60 - t.length)} ${i + 3}`, gap: 4 })),
      ],
    };
    // Set like body text after a gap: only the contents can place them.
    const chapters: PageSpec[] = sections.map((t, i) => ({
      lines: [{ text: t, gap: 14 }, ...body(20, i + 3)],
    }));
    const tree = await layoutTree([{ lines: body(10, 1) }, toc, ...chapters]);
    expect(tree.nodes.map((n) => `${n.title} [${n.startPage}]`)).toEqual(
      sections.map((t, i) => `${t} [${i + 3}]`),
    );
  });

  it("keeps a heading opening with a program's name in lower case ('w1retap dependencies', 'cd-hit-dup')", async () => {
    const names = ["Installation", "w1retap dependencies", "cd-hit-dup", "Configuration"];
    expect(await titlesOf(pages(names, 12))).toEqual(names);
  });

  it("drops a definition line that lists a hyphenated function's arguments ('string-prefix-p prefix string')", async () => {
    const spec = pages(["Installation", "Strings", "Configuration"], 12);
    spec[1]?.lines?.push(heading("string-prefix-p prefix string", 12), ...body(6, 9));
    expect(await titlesOf(spec)).toEqual(["Installation", "Strings", "Configuration"]);
  });
});
