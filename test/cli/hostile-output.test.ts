// Document text is data: titles, descriptions, texts and file names with terminal escape
// sequences must not reach the user's terminal raw (they can retitle, clear or rewrite it).
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalSafe } from "../../packages/pageindex-cli/src/cli/output.js";
import { BIN, cli } from "./run-cli.js";

const ESC = "\u001b";
const HOSTILE = [
  `${ESC}]0;pwned title${ESC}\\`, // OSC: set the window title (ST-terminated)
  `${ESC}]2;also pwned\u0007`, // OSC, BEL-terminated
  `${ESC}[2J${ESC}[H`, // clear screen, cursor home
  `${ESC}[31mred${ESC}[0m`, // colours
  "\u009b2J", // C1 CSI
  "back\rover", // carriage return rewriting the line
  "\u202eevil", // right-to-left override
];

/** The dangerous characters left in some output. */
const unsafe = (text: string) => [ESC, "\u0007", "\u009b", "\r", "\u202e"].filter((c) => text.includes(c));

describe("terminalSafe", () => {
  it("removes escape sequences and shows other controls as U+FFFD, keeping text, tabs and newlines", () => {
    expect(terminalSafe(`a${ESC}]0;x${ESC}\\b`)).toBe("ab");
    expect(terminalSafe(`${ESC}[2J${ESC}[Hclear`)).toBe("clear");
    expect(terminalSafe(`${ESC}[31mred${ESC}[0m`)).toBe("red");
    expect(terminalSafe("back\rover")).toBe("back\uFFFDover");
    expect(terminalSafe("\u202eevil")).toBe("\uFFFDevil");
    expect(terminalSafe("tab\there\nnext — café 日本")).toBe("tab\there\nnext — café 日本");
    for (const text of HOSTILE) expect(unsafe(terminalSafe(text))).toEqual([]);
  });
});

describe.skipIf(!existsSync(BIN))("the CLI prints hostile documents safely", () => {
  let dir: string;
  let store: string;
  const run = (args: string[]) => cli(["--store", store, ...args]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-hostile-"));
    store = join(dir, "store");
    const body = HOSTILE.map(
      (h, i) => `## Section ${i} ${h}\n\nDescale the kettle ${h} with citric acid.\n`,
    ).join("\n");
    const file = join(dir, `kettle${ESC}]0;file${ESC}\\.md`);
    await writeFile(file, `# Kettle ${HOSTILE[0]} manual\n\nIntro ${HOSTILE[2]}.\n\n${body}`);
    const indexed = await run(["index", file]);
    expect(indexed.code, indexed.stderr).toBe(0);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("index, list, tree and ask print no escape or control characters", async () => {
    const { documents } = JSON.parse((await run(["--json", "list"])).stdout) as {
      documents: Array<{ docId: string }>;
    };
    const doc = documents[0];
    const docId = doc?.docId as string;
    for (const args of [
      ["list"],
      ["tree", docId, "--summaries"],
      ["ask", "descale citric acid", "--no-answer"],
    ]) {
      const res = await run(args);
      expect(res.code, `${args.join(" ")}: ${res.stderr}`).toBe(0);
      expect(res.stdout.length).toBeGreaterThan(0);
      for (const output of [res.stdout, res.stderr]) {
        expect(unsafe(output)).toEqual([]);
      }
    }
  });

  it("--json keeps the text exact (escaped by JSON, safe to print)", async () => {
    const res = await run(["--json", "list"]);
    expect(unsafe(res.stdout)).toEqual([]);
    expect(JSON.stringify(JSON.parse(res.stdout))).toContain("\\u001b]0;pwned title");
  });
});
