/**
 * A printed contents made before pages were added (issue 26, fifteenth session's fresh batch:
 * eSNACC's LibreOffice manual lists "2 C Code Generation" on page 14 and prints it on 20, Logol's
 * tutorial lost a section inserted after its contents was made). The page numbers the contents
 * prints still vote the offset by their first, unmoved entries; a later entry whose number points
 * pages before its title must not be placed on that page's first prominent line while its title
 * heads a page between its placed neighbours.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, headingLine, type PageSpec } from "./fixtures/pdf-builder.js";

const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("a stale printed contents", () => {
  it("places an entry by its title between its neighbours when its page number points pages before it", async () => {
    const chapter = (title: string, seed: number): PageSpec => ({
      lines: [headingLine(title, 18), ...body(18, seed)],
    });
    const pages: PageSpec[] = [
      { lines: body(12, 1) },
      {
        lines: [
          { text: "Contents", size: 20, bold: true, gap: 6 },
          contentsLine("Installing the Server", 3),
          contentsLine("Configuring the Server", 5),
          // Three pages were added to the second chapter after the contents was made.
          contentsLine("Running Scheduled Jobs", 6),
          contentsLine("Troubleshooting Failures", 7),
        ],
      },
      chapter("Installing the Server", 2),
      { lines: body(20, 3) },
      chapter("Configuring the Server", 4),
      { lines: body(20, 5) },
      { lines: body(20, 6) },
      { lines: body(20, 7) },
      chapter("Running Scheduled Jobs", 8),
      chapter("Troubleshooting Failures", 9),
    ];
    const tree = await layoutTree(pages);
    expect(outline(tree)).toEqual([
      "Installing the Server [3]",
      "Configuring the Server [5]",
      "Running Scheduled Jobs [9]",
      "Troubleshooting Failures [10]",
    ]);
  });
});
