import { libraryEntry } from "../../src/library/entry.js";
import type { LibraryEntry } from "../../src/library/types.js";
import { libraryTree } from "../library.behaviour.js";

/**
 * A document whose sections repeat `word` a varying number of times and places, so its
 * sections' scores for `word` differ (what the champion-list tests of both engines rank).
 */
export function wordy(docId: string, version: number, word: string, sections: number): LibraryEntry {
  return libraryEntry(
    libraryTree(
      docId,
      Array.from({ length: sections }, (_, s) => ({
        title: s % 2 === 0 ? `${word} notes ${docId}` : `Notes ${docId}`,
        text: `${Array.from({ length: 1 + ((s + version) % 4) }, () => word).join(" ")} and some filler about gears.`,
        tokenCount: 12,
      })),
    ),
    `v${version}`,
  );
}
