/**
 * Reference manuals of R packages, rendered here by R's `Rd2pdf` from the help pages a Debian
 * `r-cran-*` / `r-bioc-*` package installs (issue 26, thirteenth session): the shape of the
 * held-out check's reference manual — many short help pages, several to a sheet, each opening
 * mid-page under a boxed heading line ("as.function ⇥ Convert Object to Function") with the
 * same sub-heads (Description, Usage, Arguments, …), under dictionary-style running heads
 * (the page's first and last topic). Debian ships no such PDF (only vignettes); `Rd2pdf` writes
 * one bookmark per help page, at its heading line.
 *
 * Needs R and LaTeX (`apt-get install --no-install-recommends r-base-core texlive-latex-base
 * texlive-latex-recommended texlive-fonts-recommended`). Without `inconsolata.sty` (in the large
 * texlive-fonts-extra) the code font is Courier (`R_RD4PDF=times,hyper`); the layout is Rd.sty's.
 * Never R's own base or recommended packages (R's reference manual, r-doc-pdf, is held out, and
 * its full edition holds the recommended ones).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unpackedPackage } from "./debian-docs.js";

/** An R package's help pages as one reference manual. */
export interface RdManual {
  kind: "rd";
  /** The package's folder under `usr/lib/R/site-library` ("zoo", "BiocGenerics"). */
  library: string;
}

/** R's recommended packages: in R's full reference manual, so never rendered here. */
const RECOMMENDED = new Set([
  "boot",
  "class",
  "cluster",
  "codetools",
  "foreign",
  "KernSmooth",
  "lattice",
  "MASS",
  "Matrix",
  "mgcv",
  "nlme",
  "nnet",
  "rpart",
  "spatial",
  "survival",
]);

/** The manual's PDF bytes, or undefined (with a message) when the package or R is missing. */
export function rdManualPdf(pkg: string, recipe: RdManual, cache: string): Buffer | undefined {
  if (RECOMMENDED.has(recipe.library)) throw new Error(`${recipe.library} is in R's own reference manual`);
  const root = unpackedPackage(pkg, cache);
  if (!root) return undefined;
  const dir = join(root, "usr/lib/R/site-library", recipe.library);
  if (!existsSync(join(dir, "help"))) {
    console.log(`skipped ${pkg}: no installed help pages for ${recipe.library}`);
    return undefined;
  }
  const work = mkdtempSync(join(tmpdir(), "rd2pdf-"));
  try {
    const out = join(work, `${recipe.library}.pdf`);
    execFileSync("R", ["CMD", "Rd2pdf", "--no-preview", "--batch", "--force", `--output=${out}`, dir], {
      cwd: work,
      env: { ...process.env, R_RD4PDF: "times,hyper" },
      stdio: "ignore",
    });
    return readFileSync(out);
  } catch (error) {
    console.log(`skipped ${pkg}: Rd2pdf failed (${(error as Error).message.split("\n")[0]})`);
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
