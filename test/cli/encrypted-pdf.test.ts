// An encrypted PDF given to `pageindex index` names the option a shell user has: --password.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { body, buildPdf } from "../../packages/pageindex-loader/test/fixtures/pdf-builder.js";
import { cliInProcess } from "./run-cli.js";

describe("pageindex index: an encrypted PDF", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-encrypted-"));
    const pages = [{ lines: [{ text: "Kettle", size: 18, bold: true, gap: 12 }, ...body(8)] }];
    await writeFile(join(dir, "locked.pdf"), await buildPdf({ pages, encrypt: { userPassword: "s3cret" } }));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("asks for --password, not the loader's `password` option, and opens with it", async () => {
    const store = join(dir, "store");
    const locked = await cliInProcess(["--store", store, "index", join(dir, "locked.pdf")]);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain("the PDF is encrypted; pass its password with --password");
    expect(locked.stderr).not.toContain("`password` option");
    const opened = await cliInProcess([
      "--store",
      store,
      "index",
      join(dir, "locked.pdf"),
      "--password",
      "s3cret",
    ]);
    expect(opened.code).toBe(0);
  });
});
