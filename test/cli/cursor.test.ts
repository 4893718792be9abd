import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SHOW_CURSOR } from "../../packages/pageindex-cli/src/cli/cursor.js";

const exec = promisify(execFile);
const cursorModule = pathToFileURL(
  resolve(import.meta.dirname, "../../packages/pageindex-cli/src/cli/cursor.ts"),
).href;
const HIDE_CURSOR = "\u001b[?25l";

/** Runs `body` in a child Node (TypeScript through tsx) with the cursor hidden and guarded on stdout. */
async function child(body: string): Promise<{ stdout: string; signal: string | null; code: number | null }> {
  const script = `
    const { restoreCursorOnExit } = await import(${JSON.stringify(cursorModule)});
    process.stdout.write(${JSON.stringify(HIDE_CURSOR)});
    const release = restoreCursorOnExit(process.stdout);
    ${body}`;
  try {
    const { stdout } = await exec(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      // Only against a hang: a loaded machine can take many seconds to start tsx.
      { timeout: 150_000 },
    );
    return { stdout, signal: null, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; signal: string | null; code: number | null };
    return { stdout: e.stdout, signal: e.signal, code: e.code };
  }
}

describe("the cursor a progress bar hides", () => {
  it("is shown again on Ctrl-C, and the process still dies of SIGINT", async () => {
    const run = await child(`setInterval(() => {}, 1000); process.kill(process.pid, "SIGINT");`);
    expect(run.stdout.endsWith(SHOW_CURSOR)).toBe(true);
    expect(run.signal).toBe("SIGINT");
  });

  it("leaves Ctrl-C to a command that handles it, and is shown again when that command exits", async () => {
    const run = await child(`
      let interrupts = 0;
      process.on("SIGINT", () => {
        interrupts += 1;
        if (interrupts === 2) process.exit(130);
        process.stdout.write("stopping;");
        process.kill(process.pid, "SIGINT");
      });
      setInterval(() => {}, 1000);
      process.kill(process.pid, "SIGINT");`);
    expect(run.stdout).toContain("stopping;");
    expect(run.stdout.endsWith(SHOW_CURSOR)).toBe(true);
    expect(run.code).toBe(130);
  });

  it("is shown again when the process exits before the bar is stopped", async () => {
    const run = await child(`process.exitCode = 4;`);
    expect(run.stdout.endsWith(SHOW_CURSOR)).toBe(true);
    expect(run.code).toBe(4);
  });

  it("is left to the bar once the guard is released", async () => {
    const run = await child(`release();`);
    expect(run.stdout).toBe(HIDE_CURSOR);
  });
});
