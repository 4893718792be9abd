// Indexing progress on a terminal (a bar) and elsewhere (plain lines, one per phase).
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Io } from "../../packages/pageindex-cli/src/cli/output.js";
import {
  createListBuildProgress,
  createProgress,
  createRunProgress,
  formatDuration,
  type ProgressStream,
  timeLeft,
} from "../../packages/pageindex-cli/src/cli/progress.js";

/** A stream that records what is written, claiming to be a terminal or not. */
function fakeStream(isTTY: boolean): { stream: ProgressStream; written: string[] } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number };
  stream.isTTY = isTTY;
  stream.columns = 120;
  return { stream, written };
}

function fakeIo(isTTY: boolean): { io: Io; lines: string[] } {
  const lines: string[] = [];
  return { io: { out: (t) => lines.push(`out:${t}`), err: (t) => lines.push(t), isTTY }, lines };
}

/** What the PDF loader reports while indexing a 3-page document. */
function indexThreePages(progress: ReturnType<typeof createProgress>): void {
  progress.start("report.pdf");
  for (let page = 1; page <= 3; page += 1) progress.update({ phase: "parse", done: page, total: 3 });
  progress.update({ phase: "structure", done: 3, total: 3 });
  progress.update({ phase: "summarize", done: 3, total: 3, llmCalls: 2 });
  progress.update({ phase: "summarize", done: 3, total: 3, llmCalls: 3 });
  progress.update({ phase: "done", done: 3, total: 3, llmCalls: 3 });
  progress.stop("report.pdf: indexed");
}

describe("createProgress", () => {
  it("writes one plain line per phase when not on a terminal, never per page", () => {
    const { io, lines } = fakeIo(false);
    const { stream, written } = fakeStream(false);
    indexThreePages(createProgress(io, "live", stream));
    expect(lines).toEqual([
      "report.pdf: parsing 3 pages",
      "report.pdf: finding sections",
      "report.pdf: summarising (2 LLM calls so far)",
      "report.pdf: indexed",
    ]);
    expect(written).toEqual([]);
  });

  it("draws a bar on a terminal and ends with the summary line", () => {
    const { io, lines } = fakeIo(true);
    const { stream, written } = fakeStream(true);
    indexThreePages(createProgress(io, "live", stream));
    const drawn = written.join("");
    // The bar redraws at its own pace: the first frame and the last are always drawn.
    expect(drawn).toContain("report.pdf [");
    expect(drawn).toContain("] 0/1 reading · LLM calls 0");
    expect(drawn).toContain("] 3/3 done · LLM calls 3");
    expect(lines).toEqual(["report.pdf: indexed"]);
  });

  it("prints only the summary with --no-progress, and nothing when off", () => {
    for (const isTTY of [true, false]) {
      const summary = fakeIo(isTTY);
      const quiet = fakeStream(isTTY);
      indexThreePages(createProgress(summary.io, "summary", quiet.stream));
      expect([...summary.lines, ...quiet.written]).toEqual(["report.pdf: indexed"]);
      const off = fakeIo(isTTY);
      const silent = fakeStream(isTTY);
      indexThreePages(createProgress(off.io, "off", silent.stream));
      expect([...off.lines, ...silent.written]).toEqual([]);
    }
  });
});

describe("createRunProgress", () => {
  it("draws one bar counting files with files/s; unchanged files only count, other lines scroll above", async () => {
    const { io, lines } = fakeIo(true);
    const { stream, written } = fakeStream(true);
    const run = createRunProgress(io, "live", 3, stream);
    const doc = run.document("a.pdf");
    doc.start("a.pdf");
    doc.update({ phase: "parse", done: 1, total: 2 });
    doc.stop("a.pdf: indexed");
    run.fileDone();
    run.log("b.md: unchanged, skipped", { quiet: true });
    run.fileDone();
    run.log("c.md: the id is taken");
    run.fileDone();
    // The bar redraws on its own timer (10 frames a second), lines scroll with the next frame.
    await new Promise((done) => setTimeout(done, 300));
    run.finish("3 files in 0.1 s");
    const drawn = written.join("");
    expect(drawn).toContain("files/s");
    expect(drawn).toContain("/3 files");
    expect(drawn).toContain("a.pdf: indexed");
    expect(drawn).toContain("c.md: the id is taken");
    expect(drawn).not.toContain("unchanged");
    expect(lines).toEqual(["3 files in 0.1 s"]);
  });

  it("shows the time left only once a file is finished, estimated from the finished files", async () => {
    const { io } = fakeIo(true);
    const { stream, written } = fakeStream(true);
    const run = createRunProgress(io, "live", 4, stream);
    run.document("a.md").start("a.md");
    await new Promise((done) => setTimeout(done, 150));
    const before = written.join("");
    expect(before).toContain("0/4 files");
    expect(before).not.toMatch(/left|ETA|NF|NaN|Infinity/);
    run.fileDone();
    await new Promise((done) => setTimeout(done, 150));
    run.finish("");
    expect(written.join("").slice(before.length)).toMatch(/1\/4 files · [\d.]+ files\/s · about \d+ s left/);
  });

  it("estimates the time left from the pace so far, in words a person reads", () => {
    expect(timeLeft(0, 10, 5_000)).toBe("");
    expect(timeLeft(10, 10, 5_000)).toBe("");
    expect(timeLeft(2, 10, 10_000)).toBe(" · about 40 s left");
    expect(formatDuration(400)).toBe("1 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
    expect(formatDuration(7_800_000)).toBe("2 h 10 min");
  });

  it("writes each file's lines and the summary when not on a terminal", () => {
    const { io, lines } = fakeIo(false);
    const { stream, written } = fakeStream(false);
    const run = createRunProgress(io, "live", 2, stream);
    run.log("b.md: unchanged, skipped", { quiet: true });
    const doc = run.document("a.md");
    doc.start("a.md");
    doc.stop("a.md: indexed");
    run.finish("2 files");
    expect(lines).toEqual(["b.md: unchanged, skipped", "a.md: indexed", "2 files"]);
    expect(written).toEqual([]);
  });
});

describe("createListBuildProgress", () => {
  /** What building a library index's champion lists reports: lengths, then lists. */
  function build(progress: ReturnType<typeof createListBuildProgress>): void {
    progress.step({ phase: "lengths", done: 0, total: 12_000 });
    progress.step({ phase: "lengths", done: 5_000, total: 12_000 });
    progress.step({ phase: "lengths", done: 12_000, total: 12_000 });
    progress.step({ phase: "lists", done: 0, total: 80 });
    progress.step({ phase: "lists", done: 80, total: 80 });
    progress.finish();
  }

  it("writes a line per phase off a terminal, then how long the build took", () => {
    const { io, lines } = fakeIo(false);
    const { stream, written } = fakeStream(false);
    build(createListBuildProgress(io, "live", stream));
    expect(lines).toEqual([
      "Champion lists: reading section lengths (12,000 sections)",
      "Champion lists: building term lists (80 terms)",
      expect.stringMatching(/^Champion lists: built in \d+ s \(kept by every later write\)$/),
    ]);
    expect(written).toEqual([]);
  });

  it("draws a bar per phase on a terminal; the closing line only with --no-progress; nothing when off or nothing was built", () => {
    const tty = fakeIo(true);
    const { stream, written } = fakeStream(true);
    build(createListBuildProgress(tty.io, "live", stream));
    const drawn = written.join("");
    expect(drawn).toContain("Champion lists: reading section lengths [");
    expect(drawn).toContain("] 0/12000 sections");
    expect(drawn).toContain("Champion lists: building term lists [");
    expect(tty.lines).toEqual([expect.stringMatching(/^Champion lists: built in/)]);
    const summary = fakeIo(false);
    build(createListBuildProgress(summary.io, "summary", fakeStream(false).stream));
    expect(summary.lines).toEqual([expect.stringMatching(/^Champion lists: built in/)]);
    const off = fakeIo(true);
    const silent = fakeStream(true);
    build(createListBuildProgress(off.io, "off", silent.stream));
    createListBuildProgress(off.io, "live", silent.stream).finish();
    expect([...off.lines, ...silent.written]).toEqual([]);
  });
});
