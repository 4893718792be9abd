// The CLI on a PostgreSQL store (--postgres / PAGEINDEX_POSTGRES_URL): a real server when one
// answers at PAGEINDEX_TEST_POSTGRES_URL (.ci/run starts one), passwords never shown, and one
// store location at a time.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminRows,
  dropSchema,
  POSTGRES_URL,
  postgresReachable,
  testSchema,
} from "../../packages/pageindex-store/test/helpers/postgres.js";
import { BIN, cli } from "./run-cli.js";

const jsonError = (stderr: string) => JSON.parse(stderr.trim().split("\n").pop() as string).error;

describe.skipIf(!existsSync(BIN))("pageindex --postgres", () => {
  it("never shows a PostgreSQL password, from the option or the environment", async () => {
    const res = await cli(["--postgres", "postgres://alice:s3cr%3Et@127.0.0.1:9/docs", "list"]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("Cannot open the PostgreSQL store at postgres://alice:***@127.0.0.1:9/docs");
    expect(res.stderr).not.toMatch(/s3cr/);
    const json = await cli(["--json", "list"], {
      PAGEINDEX_POSTGRES_URL: "postgresql://:hunter2@127.0.0.1:9/x",
    });
    expect(json.code).toBe(3);
    expect(json.stderr).not.toContain("hunter2");
    expect(jsonError(json.stderr).message).toContain("postgresql://:***@127.0.0.1:9/x");
  });

  it("refuses two store locations at once, naming them", async () => {
    const both = await cli([
      "--postgres",
      "postgres://127.0.0.1:9/x",
      "--redis",
      "redis://127.0.0.1:9",
      "list",
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--redis and --postgres name different stores");
    const env = await cli(["list"], {
      PAGEINDEX_POSTGRES_URL: "postgres://u:pw1@127.0.0.1:9/x",
      PAGEINDEX_REDIS_URL: "redis://:pw2@127.0.0.1:9",
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("PAGEINDEX_POSTGRES_URL and PAGEINDEX_REDIS_URL are both set");
    expect(env.stderr).not.toMatch(/pw1|pw2/);
  });
});

const available = existsSync(BIN) && (await postgresReachable("test/cli/postgres.test.ts"));

describe.skipIf(!available)("pageindex --postgres (real PostgreSQL server)", () => {
  let dir: string;
  const schema = testSchema("cli");
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-pg-cli-"));
    await writeFile(join(dir, "kayak.md"), "# Kayaking\n\n## Rolling\n\nHow to roll a kayak back upright.\n");
    await writeFile(join(dir, "garden.md"), "# Gardening\n\n## Pruning\n\nPrune roses in late winter.\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await dropSchema(schema);
  });

  // Five runs of the CLI: slow on a loaded machine.
  it("indexes, lists, searches and removes documents in one database (env or option)", {
    timeout: 240_000,
  }, async () => {
    const indexed = await cli(["--no-progress", "index", dir], { PAGEINDEX_POSTGRES_URL: url });
    expect(indexed.code, indexed.stderr).toBe(0);
    const listed = await cli(["--postgres", url, "--json", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    const ids = JSON.parse(listed.stdout).documents.map((d: { docId: string }) => d.docId);
    expect(ids.sort()).toEqual(["garden.md", "kayak.md"]);
    const asked = await cli(["--postgres", url, "--json", "ask", "how do I roll my kayak"]);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain("Rolling");
    const removed = await cli(["--postgres", url, "rm", "garden.md"]);
    expect(removed.code, removed.stderr).toBe(0);
    const after = await cli(["--postgres", url, "--json", "list"]);
    expect(JSON.parse(after.stdout).documents.map((d: { docId: string }) => d.docId)).toEqual(["kayak.md"]);
  });

  it("gives the library index champion lists with --champion-lists, kept by later runs", {
    timeout: 240_000,
  }, async () => {
    const listed = testSchema("cli_lists");
    const listedUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${listed}`;
    /** Terms with a section list or rows pending for one in the schema (undefined: it has no lists). */
    const listedTerms = async (): Promise<string[] | undefined> => {
      const table = `"${listed}".library_champion_terms`;
      const [found] = await adminRows("SELECT to_regclass($1) AS found", [table]);
      if (!found?.found) return undefined;
      return (
        await adminRows(
          `SELECT term FROM ${table} UNION SELECT term FROM "${listed}".library_champion_pending`,
        )
      ).map((r) => r.term as string);
    };
    try {
      const plain = await cli(["--postgres", listedUrl, "--no-progress", "index", join(dir, "kayak.md")]);
      expect(plain.code, plain.stderr).toBe(0);
      // A new library has lists by default; dropped, it is one an earlier release indexed.
      expect(await listedTerms()).toEqual(expect.arrayContaining(["kayak", "roll"]));
      const s = `"${listed}"`;
      await adminRows(
        `DROP TABLE ${s}.library_champions, ${s}.library_champion_terms, ${s}.library_champion_pending,
           ${s}.library_card_champions, ${s}.library_card_champion_terms, ${s}.library_card_champion_pending,
           ${s}.library_node_counts`,
      );
      expect(await listedTerms()).toBeUndefined();
      const withLists = await cli([
        "--postgres",
        listedUrl,
        "--no-progress",
        "index",
        "--champion-lists",
        join(dir, "kayak.md"),
      ]);
      expect(withLists.code, withLists.stderr).toBe(0);
      expect(withLists.stderr).toMatch(/Champion lists: built now if the library index has none/);
      expect(await listedTerms()).toEqual(expect.arrayContaining(["kayak", "roll"]));
      // A later run without the flag keeps the lists in step with what it writes.
      const later = await cli(["--postgres", listedUrl, "--no-progress", "index", join(dir, "garden.md")]);
      expect(later.code, later.stderr).toBe(0);
      expect(await listedTerms()).toEqual(expect.arrayContaining(["kayak", "garden", "rose"]));
    } finally {
      await dropSchema(listed);
    }
  });
});
