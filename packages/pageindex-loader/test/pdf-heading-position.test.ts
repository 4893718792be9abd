/** Where a heading stands on its page (issue 18): the cases real manuals showed. */
import { describe, expect, it } from "vitest";
import { locateHeading } from "../src/pdf/structure/heading-position.js";
import { locateEntries } from "../src/pdf/structure/sections.js";
import type { ParsedPage, SectionEntry } from "../src/pdf/types.js";
import { parsedPage, pdfLine } from "./fixtures/pdf-lines.js";

/** A page from [text, baseline y, size] lines, top to bottom. */
const page = (lines: Array<[string, number, number?]>): ParsedPage =>
  parsedPage(lines.map(([text, y, size]) => pdfLine(text, y, size)));

describe("locateHeading", () => {
  // An Erlang module page: the running head and the module title read alike, both taken for furniture.
  const modulePage = page([
    ["auth", 763, 9],
    ["auth", 715.6, 15],
    ["Erlang module", 696.7],
    ["This module is deprecated.", 659.7],
    ["cookie() = atom()", 604.8],
    ["cookie() -> Cookie", 551.2],
    ["cookie(TheCookie) -> true", 478.2],
  ]);

  it("takes the line under the destination's top, even when furniture detection took it for a running head", () => {
    expect(locateHeading(modulePage, "auth", { y: 728.5, skip: new Set([0, 1, 2]) })).toBe(1);
  });

  it("without a destination, never takes the page's top line (the running head) for the heading", () => {
    expect(locateHeading(modulePage, "auth", { skip: new Set([0, 1]) })).toBe(1);
    expect(locateHeading(modulePage, "auth", { skip: new Set([0]) })).toBe(1);
  });

  it("takes the first line below the destination when no line reads as the title (list/1 printed as its call)", () => {
    expect(locateHeading(modulePage, "cookie/1", { y: 488 })).toBe(6);
    // A title that reads like an earlier line on the page does not pull the heading up to it.
    expect(locateHeading(modulePage, "cookie/0", { y: 561, after: 4 })).toBe(5);
  });

  it("matches a numbered heading to an unnumbered title, the heading over a bullet that shares its words", () => {
    const p = page([
      ["• Error logging", 536.7],
      ["1.2 SASL Error Logging", 360.1, 15],
    ]);
    expect(locateHeading(p, "SASL Error Logging", { y: 372.9 })).toBe(1);
    expect(locateHeading(p, "SASL Error Logging")).toBe(1);
  });

  it('never takes a mention far below the destination for a heading above it (universal_time/0 vs "universaltime/0.")', () => {
    const p = page([
      ["time_to_seconds(Time) -> secs_per_day()", 656],
      ["universal_time() -> datetime()", 569],
      ["Returns the Universal Coordinated Time (UTC).", 552],
      ["Universal time is computed from the BIF", 215],
      ["universaltime/0.", 203],
    ]);
    expect(locateHeading(p, "universal_time/0", { y: 577.5, after: 0 })).toBe(1);
  });

  it("finds a function bookmark by its call with the bookmark's arity, not by a line naming it", () => {
    const p = page([
      ["Exports", 665, 13.5],
      ["abcast(Name :: atom(), Request :: term()) -> abcast", 637],
      ["abcast(Nodes :: [node()], Name :: atom(), Request :: term()) ->", 623],
      ["abcast", 611],
      ["Sends an asynchronous request to the gen_server processes.", 594],
      ["Types:", 499],
      ["type(AnySet) -> Type", 477],
    ]);
    expect(locateHeading(p, "abcast/2", { y: 645.9 })).toBe(1);
    expect(locateHeading(p, "abcast/3", { y: 631.4, after: 1 })).toBe(2);
    expect(locateHeading(p, "type/1", { y: 485.5, after: 2 })).toBe(6);
    // A model's section (no position) is found the same way.
    expect(locateHeading(p, "abcast/3")).toBe(2);
  });

  it("takes the title just above a destination that points at the line after it", () => {
    const index = page([
      ["Index", 785.2, 11],
      ["SomeWord refers to PARI-GP concepts.", 759, 11],
    ]);
    expect(locateHeading(index, "Index", { y: 769.9 })).toBe(0);
  });

  it("reads a destination at the top of the page as no position: the title decides", () => {
    const p = page([
      ["bravo", 770, 9],
      ["the tail of alpha.", 700],
      ["bravo", 650, 12],
    ]);
    expect(locateHeading(p, "bravo", { y: 842, skip: new Set([0]) })).toBe(2);
    expect(locateHeading(p, "charlie", { y: 842 })).toBeUndefined();
  });
});

/**
 * Content rules checked against the destination (issue 26 item 1): a title printed elsewhere on
 * the page, and a heading at the foot of the previous page, are taken only where the
 * destination can have drifted from them, never against it.
 */
describe("a destination bounds the content rules", () => {
  it("takes the title printed above the destination (a wrapped or restyled heading), never a mention below it", () => {
    const p = page([
      ["Chapter 6. Setting up MSISDN provisioning for WAP", 703, 17],
      ["gateway", 683, 17],
      ["This chapter explains how to set up provisioning.", 650],
      ["The gateway reads its settings from one file.", 636],
      ["See Setting up MSISDN provisioning for WAP gateway", 300],
      ["for the details of each setting.", 288],
    ]);
    const title = "Chapter 6. Setting up MSISDN provisioning for WAP gateway";
    expect(locateHeading(p, title, { y: 676 })).toBe(0);
    // A destination mid-page whose title is printed only further down, as a mention: the
    // destination decides (its line), not the mention.
    const mention = page([
      ["Overview", 760, 14],
      ["The daemon starts at boot and reads its configuration.", 730],
      ["Its log goes to the system journal by default.", 716],
      ["Configuration", 400, 9],
    ]);
    expect(locateHeading(mention, "Configuration", { y: 735 })).toBe(1);
  });

  it("a destination at the page's first line names the page: the title is found wherever printed", () => {
    const title = page([
      ["SystemTap 4.8", 687.5, 34],
      ["SystemTap Beginners Guide", 624.7, 34],
      ["Introduction to SystemTap", 568.6, 14],
    ]);
    expect(locateHeading(title, "SystemTap Beginners Guide", { y: 718 })).toBe(1);
  });

  const pages = (second: Array<[string, number, number?]>) => [
    parsedPage(
      [pdfLine("Text of the first section runs to the page's foot.", 300), pdfLine("Results", 120, 14)],
      1,
    ),
    parsedPage(
      second.map(([text, y, size]) => pdfLine(text, y, size)),
      2,
    ),
  ];

  it("moves a heading to the foot of the previous page only when the destination is its page's top", () => {
    const top = pages([
      ["The results of the first trial are below.", 780],
      ["They held on every machine we tried.", 766],
    ]);
    const atTop: SectionEntry[] = [{ title: "Results", page: 2, y: 795, children: [] }];
    locateEntries(atTop, top);
    expect(atTop[0]).toMatchObject({ page: 1, line: 1 });
    // The destination lands mid-page, on a line of its own: it stays there.
    const mid = pages([
      ["The first trial ran for a week.", 780],
      ["The results of the first trial are below.", 500],
      ["They held on every machine we tried.", 486],
    ]);
    const midPage: SectionEntry[] = [{ title: "Results", page: 2, y: 510, children: [] }];
    locateEntries(midPage, mid);
    expect(midPage[0]).toMatchObject({ page: 2, line: 1 });
  });
});

/**
 * Headings a changelog repeats at page tops ("8.12.1 Highlights" under every release) are read as
 * running heads (starts16, freedombox's manual): a destination among them still finds its heading
 * just below it, never the next release's "Highlights" further down the page.
 */
describe("a destination among lines taken for furniture", () => {
  const p = page([
    ["FreedomBox Manual 209 / 278", 796.7],
    ["8.12 FreedomBox 22.26 (2022-12-05)", 751.9, 10.8],
    ["8.12.1 Highlights", 726.0, 9],
    ["• ejabberd: Enable mod_http_upload", 701.6],
    ["8.12.2 Other Changes", 629.9, 9],
    ["• calibre: Add protection to local service using firewall", 605.5],
    ["8.13 FreedomBox 22.25 (2022-11-21)", 560.0, 10.8],
    ["8.13.1 Highlights", 534.1, 9],
    ["• deluge: Add protection to local service using firewall", 509.7],
  ]);
  const skip = new Set([0, 1, 2]);

  it("takes the heading just below the destination, even when it is furniture", () => {
    expect(locateHeading(p, "Highlights", { y: 741.3, skip, after: 1 })).toBe(2);
    expect(locateHeading(p, "FreedomBox 22.26 (2022-12-05)", { y: 761.9, skip })).toBe(1);
  });

  it("keeps the page's edge line (the running head itself) out", () => {
    expect(locateHeading(p, "FreedomBox Manual", { y: 800, skip })).not.toBe(0);
  });
});
