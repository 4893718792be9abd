/**
 * Reference manuals of R packages, rendered here by R's `Rd2pdf` from the help pages a Debian
 * `r-cran-*` / `r-bioc-*` package installs (issue 26, thirteenth session): the shape of the
 * held-out check's reference manual — many short help pages, several to a sheet, each opening
 * mid-page under a boxed heading line ("as.function ⇥ Convert Object to Function") with the
 * same sub-heads (Description, Usage, Arguments, …), under dictionary-style running heads
 * (the page's first and last topic). Debian ships no such PDF (only vignettes); `Rd2pdf` writes
 * one bookmark per help page, at its heading line. Several packages may be bound as one book, a
 * chapter each under a printed contents (the shape of a full reference manual, made here from
 * other packages' help pages with Rd.sty; pdflatex and makeindex come with texlive-latex-base).
 *
 * Needs R and LaTeX (`apt-get install --no-install-recommends r-base-core texlive-latex-base
 * texlive-latex-recommended texlive-fonts-recommended`). Without `inconsolata.sty` (in the large
 * texlive-fonts-extra) the code font is Courier (`R_RD4PDF=times,hyper`); the layout is Rd.sty's.
 * Never R's own base or recommended packages (R's reference manual, r-doc-pdf, is held out, and
 * its full edition holds the recommended ones).
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unpackedPackage } from "./debian-docs.js";

/** An R package's help pages as one reference manual. */
export interface RdManual {
  kind: "rd";
  /** The package's folder under `usr/lib/R/site-library` ("zoo", "BiocGenerics"). */
  library: string;
  /**
   * More packages (Debian package, folder) bound after it into one book, each a chapter "The X
   * package" over its help pages, under a printed contents: the shape of a full reference manual.
   */
  more?: readonly (readonly [pkg: string, library: string])[];
  /** A book without its printed contents (only the running heads and the lines place the topics). */
  noContents?: boolean;
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

/** The manual's PDF bytes, or undefined (with a message) when a package or R is missing. */
export function rdManualPdf(pkg: string, recipe: RdManual, cache: string): Buffer | undefined {
  const parts = [[pkg, recipe.library] as const, ...(recipe.more ?? [])];
  const dirs: string[] = [];
  for (const [p, library] of parts) {
    if (RECOMMENDED.has(library)) throw new Error(`${library} is in R's own reference manual`);
    const root = unpackedPackage(p, cache);
    const dir = root && join(root, "usr/lib/R/site-library", library);
    if (!dir || !existsSync(join(dir, "help"))) {
      console.log(`skipped ${p}: no installed help pages for ${library}`);
      return undefined;
    }
    dirs.push(dir);
  }
  const work = mkdtempSync(join(tmpdir(), "rd2pdf-"));
  try {
    if (dirs.length === 1) return rd2pdf(dirs[0] as string, work, false);
    // A book: each package's help pages as Rd2pdf writes them (its LaTeX, kept with --no-clean),
    // after a chapter naming the package, under one printed contents, typeset by pdflatex.
    const bodies = dirs.map((dir, i) => {
      const tex = rd2pdf(dir, join(work, String(i)), true);
      const body = tex.split("\n");
      const from = body.findIndex((l) => l.startsWith("\\Rdcontents"));
      const to = body.findIndex((l) => l.startsWith("\\printindex"));
      return [`\\chapter{The \\texttt{${parts[i]?.[1]}} package}`, ...body.slice(from + 1, to)].join("\n");
    });
    const book = [
      "\\documentclass[letterpaper]{book}",
      "\\usepackage[times,hyper]{Rd}",
      "\\usepackage{makeidx}",
      "\\usepackage[utf8]{inputenc}",
      "\\makeindex{}",
      "\\begin{document}",
      "\\chapter*{}",
      `\\begin{center}{\\textbf{\\huge ${parts.map((p) => p[1]).join(", ")}: a reference manual}}\\end{center}`,
      ...(recipe.noContents ? [] : ["\\tableofcontents"]),
      ...bodies,
      "\\printindex{}",
      "\\end{document}",
    ].join("\n");
    writeFileSync(join(work, "book.tex"), book);
    const env = { ...process.env, TEXINPUTS: `${RD_TEXMF}//:` };
    // Three runs: the contents, then the page numbers it prints, then the index's.
    for (let run = 0; run < 3; run++) {
      execFileSync("pdflatex", ["-interaction=nonstopmode", "book.tex"], { cwd: work, env, stdio: "ignore" });
      if (run === 0) execFileSync("makeindex", ["book.idx"], { cwd: work, stdio: "ignore" });
    }
    return readFileSync(join(work, "book.pdf"));
  } catch (error) {
    console.log(`skipped ${pkg}: Rd2pdf failed (${(error as Error).message.split("\n")[0]})`);
    return undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Where R keeps Rd.sty. */
const RD_TEXMF = "/usr/share/R/share/texmf/tex/latex";

/** Rd2pdf on an installed package in `work`: the PDF's bytes, or with `latex` the LaTeX it typeset. */
function rd2pdf(dir: string, work: string, latex: true): string;
function rd2pdf(dir: string, work: string, latex: false): Buffer;
function rd2pdf(dir: string, work: string, latex: boolean): Buffer | string {
  mkdirSync(work, { recursive: true });
  const out = join(work, "manual.pdf");
  const args = ["CMD", "Rd2pdf", "--no-preview", "--batch", "--force", `--output=${out}`];
  execFileSync("R", [...args, ...(latex ? ["--no-clean"] : []), dir], {
    cwd: work,
    env: { ...process.env, R_RD4PDF: "times,hyper" },
    stdio: "ignore",
  });
  if (!latex) return readFileSync(out);
  const kept = readdirSync(work).find((f) => f.startsWith(".Rd2pdf"));
  return readFileSync(join(work, kept as string, "Rd2.tex"), "utf8");
}
