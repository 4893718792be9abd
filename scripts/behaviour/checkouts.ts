/**
 * The two checkouts scripts/check-behaviour.ts compares: the base (a detached git worktree made
 * in the OS temp folder, installed and built once per commit, or a given built folder) and this
 * one; what identifies each for caching; and the inputs both read (corpus, Debian documentation).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** A checkout the measurements run in. */
export interface Checkout {
  /** "base" or "this". */
  side: "base" | "this";
  dir: string;
  commit: string;
  /** Commit plus a digest of uncommitted changes: what the side's results depend on. */
  key: string;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Runs a command with its output shown (install, build); throws when it fails. */
export function run(cwd: string, command: string, args: string[]): void {
  execFileSync(command, args, { cwd, stdio: "inherit" });
}

/**
 * Commit + digest of the files git would see changed or new (tracked edits and untracked files
 * not ignored), so results of a dirty tree are never mistaken for the commit's.
 */
export function checkoutKey(dir: string): string {
  const commit = git(dir, "rev-parse", "HEAD");
  const changed = git(dir, "status", "--porcelain", "--untracked-files=all")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3).replace(/^.* -> /, ""))
    .sort();
  if (changed.length === 0) return commit.slice(0, 12);
  const hash = createHash("sha1");
  for (const file of changed) {
    const path = join(dir, file);
    hash.update(file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return `${commit.slice(0, 12)}-dirty-${hash.digest("hex").slice(0, 8)}`;
}

/** The default base: the merge-base of `main` and HEAD. */
export function defaultBaseRef(repo: string): string {
  return git(repo, "merge-base", "main", "HEAD");
}

/**
 * A detached worktree of `ref` under `root`, installed (`--frozen-lockfile`) and built once; a
 * `shared/corpus` link beside it, where the scripts look for `../shared/corpus`.
 */
export function baseWorktree(repo: string, ref: string, root: string, corpus: string | undefined): Checkout {
  const commit = git(repo, "rev-parse", "--verify", `${ref}^{commit}`);
  const home = join(root, "worktrees", commit.slice(0, 12));
  const dir = join(home, "repo");
  const built = join(home, "built");
  if (!existsSync(built)) {
    if (!existsSync(dir)) {
      mkdirSync(home, { recursive: true });
      console.log(`base: git worktree add --detach ${dir} ${commit.slice(0, 12)}`);
      run(repo, "git", ["worktree", "add", "--detach", dir, commit]);
    }
    run(dir, "pnpm", ["install", "--frozen-lockfile"]);
    run(dir, "pnpm", ["run", "build"]);
    mkdirSync(built);
  }
  if (corpus && !existsSync(join(home, "shared", "corpus"))) {
    mkdirSync(join(home, "shared"), { recursive: true });
    symlinkSync(corpus, join(home, "shared", "corpus"));
  }
  return { side: "base", dir, commit, key: commit.slice(0, 12) };
}

/** A checkout given as a folder (already installed and built). */
export function existingCheckout(side: "base" | "this", dir: string): Checkout {
  const abs = resolve(dir);
  return { side, dir: abs, commit: git(abs, "rev-parse", "HEAD"), key: checkoutKey(abs) };
}

/**
 * The corpus: `--corpus`, `PAGEINDEX_CORPUS`, `../shared/corpus` beside this checkout, or beside
 * the main worktree (a linked worktree such as /work/wt/x has no `shared` folder beside it).
 */
export function findCorpus(repo: string, given: string | undefined): string | undefined {
  const commonGit = resolve(repo, git(repo, "rev-parse", "--git-common-dir"));
  const candidates = [
    given,
    process.env.PAGEINDEX_CORPUS,
    join(repo, "..", "shared", "corpus"),
    join(dirname(commonGit), "..", "shared", "corpus"),
  ];
  return candidates.find((c): c is string => c !== undefined && existsSync(c));
}

/**
 * Why a checkout's scripts would not find `corpus`, or undefined when they will: its scripts read
 * `../shared/corpus` beside the checkout, or `PAGEINDEX_CORPUS` once they know that variable.
 */
export function corpusProblem(checkout: Checkout): string | undefined {
  const beside = join(checkout.dir, "..", "shared", "corpus");
  if (existsSync(beside)) return undefined;
  const reader = join(checkout.dir, "scripts", "corpus.ts");
  if (existsSync(reader) && readFileSync(reader, "utf8").includes("PAGEINDEX_CORPUS")) return undefined;
  return `${checkout.side} (${checkout.dir}) cannot see the corpus: no ${beside} and its scripts/corpus.ts does not read PAGEINDEX_CORPUS (merge the harness branch)`;
}
