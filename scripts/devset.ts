/**
 * The Debian documentation PDFs the evaluation scripts read, fetched with `apt-get download`
 * into a cache folder outside the repository (default `~/.cache/pageindex-devset`; nothing is
 * committed) and unpacked with `dpkg-deb -x`; `.pdf.gz` files are gunzipped in memory.
 * Packages that cannot be fetched (no apt, no network) are reported and skipped.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/** Default cache folder for fetched packages. */
export const DEVSET_CACHE = join(homedir(), ".cache", "pageindex-devset");

export interface DevDoc {
  /** Debian package. */
  pkg: string;
  /** Path inside the package. */
  path: string;
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

/** The package's files, fetched and unpacked once; undefined (with a message) when apt cannot fetch it. */
export function unpacked(cache: string, pkg: string): string | undefined {
  const debs = join(cache, "debs");
  const root = join(cache, "x", pkg);
  if (existsSync(root)) return root;
  mkdirSync(debs, { recursive: true });
  let deb = readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
  if (!deb) {
    try {
      execFileSync("apt-get", ["download", pkg], { cwd: debs, stdio: "pipe" });
    } catch (error) {
      console.log(`skipped ${pkg}: apt-get download failed (${(error as Error).message.split("\n")[0]})`);
      return undefined;
    }
    deb = readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
    if (!deb) return undefined;
  }
  mkdirSync(root, { recursive: true });
  execFileSync("dpkg-deb", ["-x", join(debs, deb), root]);
  return root;
}

export function pdfBytes(cache: string, doc: DevDoc): Uint8Array | undefined {
  const root = unpacked(cache, doc.pkg);
  if (!root) return undefined;
  const file = join(root, doc.path);
  if (!existsSync(file)) {
    console.log(`skipped ${doc.pkg}: ${doc.path} is not in the package`);
    return undefined;
  }
  const raw = readFileSync(file);
  return new Uint8Array(doc.path.endsWith(".gz") ? gunzipSync(raw) : raw);
}
