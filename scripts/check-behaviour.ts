/**
 * Proof that a refactor changes no behaviour (issue 23): runs the same measurements in a base
 * checkout and in this one, each with its own copy of the scripts and its own tree caches, and
 * compares the outputs:
 * - `bench-cost` over `--sets` (default filings,manual), with the oracle judge and with `--noise 2`;
 * - `eval-offline-judge` (hit rates and per-question ranks of the lexical judge);
 * - `eval-section-starts` (the table and totals it prints);
 * - `show-judge-prompts` (the prompts file, compared byte for byte).
 * Only wall-clock fields (durations, timestamps, load) are normalised out; every other number and
 * per-question row must be equal. Prints `measurement | base | this | same?`, the first differing
 * lines of each difference, and exits 1 on any difference, 2 when a measurement could not run
 * (corpus or Debian documentation absent, a script failed), 0 when all are identical.
 *
 * The base is `--base <ref>` (default: the merge-base of `main` and HEAD), checked out as a
 * detached git worktree in the OS temp folder, installed with `--frozen-lockfile` and built once,
 * or `--base-dir <folder>` (an installed, built checkout). Its outputs are cached by commit (and
 * a digest of uncommitted changes), so a second run only reruns this side (`--refresh-base` to
 * rerun it too). Each side runs with its own TMPDIR, so trees built by one side's loader are never
 * read by the other's (the scripts cache trees in the OS temp folder, keyed by the PDF only).
 *
 * Inputs: the corpus (`--corpus`, default ../shared/corpus beside this checkout or beside the main
 * worktree) and Debian documentation packages fetched with `apt-get download` into
 * ~/.cache/pageindex-devset; what is absent is reported.
 *
 * Run: pnpm check:behaviour [--base <ref> | --base-dir <folder>] [--sets filings,manual]
 *      [--only <name part>] [--refresh-base] [--no-build] [--corpus <folder>]
 * Writes every output under <OS temp>/pageindex-check-behaviour/results/<side>-<key>/.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  baseWorktree,
  type Checkout,
  checkoutKey,
  corpusProblem,
  defaultBaseRef,
  existingCheckout,
  findCorpus,
  git,
  run,
} from "./behaviour/checkouts.js";
import {
  comparableLines,
  definitionKey,
  firstDifferences,
  type Measurement,
  measurements,
  STDOUT,
  summary,
} from "./behaviour/measurements.js";
import { DEBIAN_CACHE, unpackedPackage } from "./debian-docs.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = join(tmpdir(), "pageindex-check-behaviour");

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    "base-dir": { type: "string" },
    sets: { type: "string", default: "filings,manual" },
    only: { type: "string" },
    "refresh-base": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    corpus: { type: "string" },
  },
});

/** Lines of a script's output that say an input was missing (the scripts skip and go on). */
const ABSENT = /corpus not found|could not fetch|apt-get download failed|is not in the package|skipped/i;

/** What one side's run of one measurement left. */
interface Result {
  ok: boolean;
  /** The output's text, when the run wrote it. */
  content?: string;
  /** Input-missing lines the script printed. */
  absent: string[];
  seconds: number;
  cached: boolean;
  log: string;
}

// ---------------------------------------------------------------- inputs
/** bench-cost fetches its manuals into <TMPDIR>/pageindex-bench-cost/<pkg>/x: hard-link them from the shared cache. */
function seedBenchCostManuals(tmp: string): void {
  for (const pkg of ["erlang-doc", "gap-doc"]) {
    const target = join(tmp, "pageindex-bench-cost", pkg, "x");
    if (existsSync(target)) continue;
    const unpacked = unpackedPackage(pkg, DEBIAN_CACHE);
    if (!unpacked) continue; // bench-cost reports the package as not fetched
    mkdirSync(dirname(target), { recursive: true });
    try {
      run(tmp, "cp", ["-al", unpacked, target]);
    } catch {
      cpSync(unpacked, target, { recursive: true });
    }
  }
}

/** The Debian packages the measurements read, fetched once; the ones apt cannot fetch. */
function missingDebianPackages(): string[] {
  const pkgs = ["erlang-doc", "gap-doc", "octave-doc", "pari-doc", "maxima-doc"];
  return pkgs.filter((pkg) => unpackedPackage(pkg, DEBIAN_CACHE) === undefined);
}

// ---------------------------------------------------------------- running
function runScript(
  checkout: Checkout,
  m: Measurement,
  outDir: string,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  const tsx = join(checkout.dir, "node_modules", ".bin", "tsx");
  const args = [
    "--tsconfig",
    join(checkout.dir, "tsconfig.json"),
    join(checkout.dir, m.script),
    ...m.args(outDir),
  ];
  const stdout = createWriteStream(join(outDir, STDOUT));
  const stderr = createWriteStream(join(outDir, "stderr.txt"));
  return new Promise((done) => {
    // The run's own folder is its working directory: `.bench-out/` lands there, not in the checkout.
    const child = spawn(tsx, args, { cwd: outDir, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(stdout);
    child.stderr.pipe(stderr);
    child.on("error", () => done(false));
    child.on("close", (code) => done(code === 0));
  });
}

async function measure(checkout: Checkout, m: Measurement, corpus: string | undefined): Promise<Result> {
  const sideDir = join(ROOT, "results", `${checkout.side}-${checkout.key}`);
  const outDir = join(sideDir, m.name.replace(/\W+/g, "-"));
  const metaFile = join(outDir, "meta.json");
  const key = definitionKey(m);
  const log = join(outDir, STDOUT);
  const read = (ok: boolean, seconds: number, cached: boolean): Result => {
    const output = join(outDir, m.output);
    const printed = existsSync(log) ? readFileSync(log, "utf8") : "";
    return {
      ok,
      absent: printed.split("\n").filter((line) => ABSENT.test(line)),
      seconds,
      cached,
      log,
      ...(existsSync(output) ? { content: readFileSync(output, "utf8") } : {}),
    };
  };
  if (checkout.side === "base" && !values["refresh-base"] && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as { key: string; ok: boolean; seconds: number };
    const cached = meta.key === key && meta.ok ? read(true, meta.seconds, true) : undefined;
    // A run that lacked an input is redone: the input may be there now.
    if (cached && cached.absent.length === 0) return cached;
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Tree caches live in the OS temp folder keyed by the PDF alone: one folder per side and state.
  const tmp = join(ROOT, "tmp", `${checkout.side}-${checkout.key}`);
  mkdirSync(tmp, { recursive: true });
  if (m.script.endsWith("bench-cost.ts")) seedBenchCostManuals(tmp);
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, NO_COLOR: "1", FORCE_COLOR: "0" };
  if (corpus) env.PAGEINDEX_CORPUS = corpus;
  const started = Date.now();
  const ok = await runScript(checkout, m, outDir, env);
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(metaFile, `${JSON.stringify({ key, ok, seconds, commit: checkout.commit }, null, 2)}\n`);
  return read(ok, seconds, false);
}

// ---------------------------------------------------------------- comparing
type Verdict = "same" | "DIFFERENT" | "absent" | "failed";

function compare(m: Measurement, base: Result, mine: Result): { verdict: Verdict; details: string[] } {
  if (!base.ok || !mine.ok) {
    const which = [!base.ok ? `base (${base.log})` : "", !mine.ok ? `this (${mine.log})` : ""];
    return { verdict: "failed", details: [`script failed: ${which.filter(Boolean).join(", ")}`] };
  }
  if (base.content === undefined || mine.content === undefined) {
    const missing = base.content === undefined ? "base" : "this";
    const why = [...base.absent, ...mine.absent];
    if (base.content === undefined && mine.content === undefined)
      return { verdict: "absent", details: why.length ? why : ["no output on either side"] };
    return {
      verdict: "DIFFERENT",
      details: [`only one side wrote ${m.output} (missing: ${missing})`, ...why],
    };
  }
  const differences = firstDifferences(
    comparableLines(m.kind, base.content),
    comparableLines(m.kind, mine.content),
  );
  if (differences.length > 0) return { verdict: "DIFFERENT", details: differences };
  const absent = [...new Set([...base.absent, ...mine.absent])];
  return { verdict: absent.length > 0 ? "absent" : "same", details: absent };
}

function cell(r: Result, m: Measurement): string {
  if (!r.ok) return "failed";
  const digest = r.content === undefined ? "no output" : summary(m, r.content);
  return `${digest} (${r.cached ? "cached" : `${r.seconds.toFixed(0)} s`})`;
}

// ---------------------------------------------------------------- main
async function main(): Promise<number> {
  const started = Date.now();
  const corpus = findCorpus(REPO, values.corpus);
  const missingDebs = missingDebianPackages();
  let base: Checkout;
  if (values["base-dir"]) {
    if (values.base) throw new Error("give --base or --base-dir, not both");
    base = existingCheckout("base", values["base-dir"]);
  } else {
    const ref = values.base ?? defaultBaseRef(REPO);
    base = baseWorktree(REPO, ref, ROOT, corpus);
  }
  const mine: Checkout = {
    side: "this",
    dir: REPO,
    commit: git(REPO, "rev-parse", "HEAD"),
    key: checkoutKey(REPO),
  };
  if (!values["no-build"]) run(REPO, "pnpm", ["run", "build"]);

  console.log(`base: ${base.dir} @ ${base.key}`);
  console.log(`this: ${mine.dir} @ ${mine.key}`);
  const notes: string[] = [];
  if (!corpus)
    notes.push(
      "ABSENT: the corpus (../shared/corpus; give --corpus): filings, eval-offline-judge and show-judge-prompts cannot run",
    );
  else
    for (const c of [base, mine]) {
      const problem = corpusProblem(c);
      if (problem) notes.push(`ABSENT: ${problem}`);
    }
  if (missingDebs.length > 0)
    notes.push(`ABSENT: Debian packages apt-get could not fetch: ${missingDebs.join(", ")}`);
  for (const n of notes) console.log(n);

  const list = measurements(values.sets.split(",").filter(Boolean)).filter(
    (m) => !values.only || m.name.includes(values.only),
  );
  // Both sides, and the groups of measurements within each, run side by side: on a shared machine
  // this cuts the wall time; no output depends on timing.
  const runSide = async (checkout: Checkout): Promise<Result[]> => {
    const results = new Map<Measurement, Result>();
    const groups = [...new Set(list.map((m) => m.group))];
    await Promise.all(
      groups.map(async (group) => {
        for (const m of list.filter((x) => x.group === group)) {
          const r = await measure(checkout, m, corpus);
          console.log(`  ${m.name}: ${checkout.side} ${r.cached ? "cached" : `${r.seconds.toFixed(0)} s`}`);
          results.set(m, r);
        }
      }),
    );
    return list.map((m) => results.get(m) as Result);
  };
  const [baseResults, mineResults] = await Promise.all([runSide(base), runSide(mine)]);
  const rows = list.map((m, i) => {
    const b = baseResults[i] as Result;
    const t = mineResults[i] as Result;
    return { m, base: b, mine: t, ...compare(m, b, t) };
  });

  console.log("\nmeasurement | base | this | same?");
  console.log("--- | --- | --- | ---");
  for (const r of rows)
    console.log(`${r.m.name} | ${cell(r.base, r.m)} | ${cell(r.mine, r.m)} | ${r.verdict}`);
  for (const r of rows.filter((x) => x.verdict !== "same")) {
    console.log(`\n${r.verdict}: ${r.m.name}`);
    for (const d of r.details) console.log(`  ${d}`);
  }
  console.log(
    `\noutputs: ${join(ROOT, "results")}; wall time ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  if (count("DIFFERENT") > 0) {
    console.log(`DIFFERENT: ${count("DIFFERENT")} of ${rows.length} measurements differ`);
    return 1;
  }
  if (count("failed") > 0 || count("absent") > 0 || notes.length > 0) {
    console.log(
      `INCOMPLETE: no difference found, but ${count("failed")} failed and ${count("absent")} lacked inputs (see above)`,
    );
    return 2;
  }
  console.log(`identical: all ${rows.length} measurements are the same in base and this checkout`);
  return 0;
}

process.exitCode = await main();
