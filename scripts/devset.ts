/**
 * The layout dev set: outline-bearing PDFs from Debian documentation packages, fetched by
 * scripts/debian-docs.ts into a cache folder outside the repository (default
 * `~/.cache/pageindex-devset`; nothing is committed).
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { DebianPdf } from "./debian-docs.js";

/** Default cache folder for fetched packages. */
export const DEVSET_CACHE = join(homedir(), ".cache", "pageindex-devset");

/** A dev-set PDF and the tool that made it. */
export interface DevDoc extends DebianPdf {
  /** What made the PDF. */
  origin: string;
}

/** One or two PDFs per package; large and small, books, manuals and references. */
export const DEVSET: readonly DevDoc[] = [
  { pkg: "asymptote-doc", path: "usr/share/doc/asymptote/asymptote.pdf", origin: "Texinfo" },
  { pkg: "sbcl-doc", path: "usr/share/doc/sbcl/sbcl.pdf.gz", origin: "Texinfo" },
  { pkg: "octave-doc", path: "usr/share/doc/octave/liboctave.pdf", origin: "Texinfo" },
  { pkg: "gprolog-doc", path: "usr/share/doc/gprolog-doc/gprolog.pdf", origin: "LaTeX (HeVeA sources)" },
  { pkg: "yorick-doc", path: "usr/share/doc/yorick-doc/yorick.pdf.gz", origin: "Texinfo" },
  { pkg: "freefem-doc", path: "usr/share/doc/freefem-doc/freefem.pdf", origin: "LaTeX" },
  { pkg: "pari-doc", path: "usr/share/pari/doc/users.pdf", origin: "plain TeX" },
  { pkg: "pari-doc", path: "usr/share/pari/doc/develop.pdf", origin: "plain TeX" },
  { pkg: "gap-doc", path: "usr/share/gap/doc/tut/manual.pdf", origin: "GAPDoc (LaTeX)" },
  { pkg: "gap-doc", path: "usr/share/gap/doc/hpc/manual.pdf", origin: "GAPDoc (LaTeX)" },
  {
    pkg: "maxima-doc",
    path: "usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz",
    origin: "LaTeX book",
  },
  { pkg: "ngspice-doc", path: "usr/share/doc/ngspice-doc/manual.pdf.gz", origin: "LaTeX (LyX)" },
  { pkg: "sdcc-doc", path: "usr/share/doc/sdcc-doc/sdccman.pdf.gz", origin: "LyX" },
  { pkg: "debian-faq", path: "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz", origin: "DocBook" },
  {
    pkg: "debian-reference-en",
    path: "usr/share/debian-reference/debian-reference.en.pdf",
    origin: "DocBook",
  },
  { pkg: "dblatex-doc", path: "usr/share/doc/dblatex/manual.pdf.gz", origin: "DocBook (dblatex)" },
  { pkg: "debmake-doc", path: "usr/share/doc/debmake-doc/debmake-doc.en.pdf", origin: "AsciiDoc/DocBook" },
  { pkg: "doxygen-doc", path: "usr/share/doc/doxygen/doxygen_manual.pdf", origin: "Doxygen LaTeX" },
  { pkg: "avr-libc", path: "usr/share/doc/avr-libc/avr-libc-user-manual.pdf.gz", origin: "Doxygen LaTeX" },
  { pkg: "verilator", path: "usr/share/doc/verilator/verilator.pdf", origin: "Sphinx" },
  {
    pkg: "erlang-doc",
    path: "usr/share/doc/erlang-doc/lib/sasl-4.2/doc/pdf/sasl-4.2.pdf",
    origin: "XSL-FO (FOP)",
  },
  {
    pkg: "erlang-doc",
    path: "usr/share/doc/erlang-doc/lib/crypto-5.1.2/doc/pdf/crypto-5.1.2.pdf",
    origin: "XSL-FO (FOP)",
  },
];

/**
 * Held out: PDFs of other packages (and one more Erlang application) that no rule was written
 * on, scored with `--holdout` to check that gains on the dev set hold on documents not tuned on.
 */
export const HOLDOUT: readonly DevDoc[] = [
  { pkg: "lammps-doc", path: "usr/share/doc/lammps/html/PDF/colvars-refman-lammps.pdf.gz", origin: "LaTeX" },
  {
    pkg: "lammps-doc",
    path: "usr/share/doc/lammps/html/PDF/MACHDYN_LAMMPS_userguide.pdf.gz",
    origin: "LaTeX",
  },
  { pkg: "lilypond-doc-pdf", path: "usr/share/doc/lilypond/html/Documentation/essay.pdf", origin: "Texinfo" },
  {
    pkg: "lilypond-doc-pdf",
    path: "usr/share/doc/lilypond/html/Documentation/extending.pdf",
    origin: "Texinfo",
  },
  {
    pkg: "erlang-doc",
    path: "usr/share/doc/erlang-doc/lib/mnesia-4.21.3/doc/pdf/mnesia-4.21.3.pdf",
    origin: "XSL-FO (FOP)",
  },
];
