/**
 * How the layout evaluations score a layout tree against a dev-set PDF's outline (issue 26): the
 * outline's top two levels are the reference (read one level down when a single top bookmark
 * holds everything); a layout node matches a bookmark with the same start page, a similar title
 * and (level-aware) the same level. Shared by eval-devset-layout.ts, eval-pdf-devset.ts and
 * fit-heading-evidence.ts.
 */
import type { SectionEntry } from "../packages/pageindex-loader/src/pdf/types.js";
import { type Entry, match } from "./structure-match.js";

/**
 * Front-matter lists ("Table of Contents", "List of Figures"): a childless bookmark of this title
 * beside a lone top bookmark does not stop the reference from reading one level down.
 */
const FRONT_LIST =
  /^(?:(?:table of )?contents|tables|figures|illustrations|examples|(?:list|index) of (?:tables|figures|illustrations|examples|listings))$/i;

/** A tree's entries of its top two levels, with their depth. */
export function topTwo(entries: readonly SectionEntry[]): Entry[] {
  const out: Entry[] = [];
  const walk = (list: readonly SectionEntry[], level: number) => {
    for (const e of list) {
      out.push({ title: e.title, page: e.page, level });
      if (level < 2) walk(e.children, level + 1);
    }
  };
  walk(entries, 1);
  return out;
}

/**
 * The reference entries from an outline's tree: a lone top bookmark holding everything is
 * skipped, also when childless front-matter lists ("Table of Contents") stand beside it, as the
 * layout path reads a lone top heading (tree-shape.ts).
 */
export function referenceEntries(outline: readonly SectionEntry[]): Entry[] {
  const body = outline.filter((e) => e.children.length > 0 || !FRONT_LIST.test(e.title.trim()));
  const only = body[0];
  return topTwo(body.length === 1 && only && only.children.length > 0 ? only.children : outline);
}

/** F1 of a precision and a recall. */
export const f1 = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

/** A tree's scores and its errors by class. */
export interface LayoutScore {
  f1: number;
  f1AnyLevel: number;
  /** Reference entries no layout node matches. */
  missed: number;
  /** Layout nodes of the top two levels that match no reference entry. */
  extra: number;
  /** Nodes that match a reference entry only at another depth. */
  wrongDepth: number;
}

/** Level-aware F1 and F1 at any level of a layout tree against the reference. */
export function layoutF1(reference: readonly Entry[], entries: readonly SectionEntry[]): LayoutScore {
  const predicted = topTwo(entries);
  const leveled = match(reference, predicted, 0, true).size;
  const any = match(reference, predicted, 0, false).size;
  const score = (hits: number): number =>
    f1(predicted.length === 0 ? 0 : hits / predicted.length, hits / Math.max(1, reference.length));
  return {
    f1: score(leveled),
    f1AnyLevel: score(any),
    missed: reference.length - any,
    extra: predicted.length - any,
    wrongDepth: any - leveled,
  };
}

/** Prints the reference and the layout entries as indented outlines (the evaluations' `--show`). */
export function showEntries(reference: readonly Entry[], predicted: readonly Entry[]): void {
  const line = (e: Entry) => `${"  ".repeat(e.level - 1)}${e.title} [p${e.page}]`;
  console.log("--- reference ---");
  for (const e of reference) console.log(line(e));
  console.log("--- layout ---");
  for (const e of predicted) console.log(line(e));
}
