import o200kBase from "js-tiktoken/ranks/o200k_base";

// o200k_base counts in linear time. js-tiktoken's own encoder merges each pre-tokenised piece
// with a quadratic scan (and joins byte arrays into keys at every step), so one long piece — a
// run of 2 MB of letters, "=" or blanks — takes seconds to minutes. This counter splits the
// text with the same pattern, looks up whole pieces in the same rank table, and merges the
// rest with the same rule (lowest rank first, leftmost on ties), by a scan for short pieces and
// a heap for long ones: the same count as `new Tiktoken(o200kBase).encode(text, [], []).length`
// for every piece up to 4 KiB. That covers all text, base64 and data URIs included (the
// pattern cuts them at every case or digit change); only a single piece over 4 KiB (one
// character class unbroken: a ruler, a letter repeated) is merged in 4 KiB windows, memoised,
// so a 2 MB ruler costs one window. The cuts can change the count by a token or so per 4 KiB
// window (0 on runs of one character, which tokenise in power-of-two lengths).

/** Merge ranks keyed by a token's bytes as a binary string (one char per byte). */
export type RankTable = ReadonlyMap<string, number>;

let table: Map<string, number> | undefined;
let pattern: RegExp | undefined;
const utf8 = new TextEncoder();

/** The o200k_base rank table, built once from js-tiktoken's rank file (base64 tokens by rank). */
export function o200kRanks(): RankTable {
  if (!table) {
    table = new Map();
    // Each line: a label, the rank of its first token, then base64 tokens at consecutive ranks.
    for (const line of o200kBase.bpe_ranks.split("\n")) {
      const fields = line.split(" ");
      const first = Number.parseInt(fields[1] ?? "", 10);
      for (let i = 2; i < fields.length; i++) table.set(atob(fields[i] as string), first + i - 2);
    }
  }
  return table;
}

/** A piece's UTF-8 bytes as a binary string: the piece itself when it is ASCII. */
function binaryKey(piece: string): string {
  let ascii = true;
  for (let i = 0; i < piece.length && ascii; i++) ascii = piece.charCodeAt(i) < 0x80;
  if (ascii) return piece;
  const bytes = utf8.encode(piece);
  let key = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    key += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return key;
}

/** Heap entries pack (rank, position) in one number: ranks < 2^18, positions < 2^32. */
const POSITION = 2 ** 32;

/** A binary min-heap of numbers in a typed array sized for one piece's merges. */
class NumberHeap {
  private readonly items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Float64Array(capacity);
  }

  push(value: number): void {
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items[--this.size] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (items[child + 1] as number) < (items[child] as number)) child += 1;
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

/**
 * Number of tokens byte-pair merging makes of one piece (given as a binary string): merge the
 * adjacent pair whose union has the lowest rank, leftmost first, until no pair is a token.
 * Parts live in a linked list indexed by their first byte; stale heap entries are skipped.
 */
function mergeCount(key: string, ranks: RankTable): number {
  const n = key.length;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pairRank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  // Each merge pushes at most two entries: n initial pairs plus 2 per merge bound the heap.
  const heap = new NumberHeap(3 * n);
  const rate = (i: number): void => {
    const j = next[i] as number;
    const rank = j < n ? ranks.get(key.slice(i, next[j] as number)) : undefined;
    pairRank[i] = rank ?? Number.POSITIVE_INFINITY;
    if (rank !== undefined) heap.push(rank * POSITION + i);
  };
  for (let i = 0; i < n - 1; i++) rate(i);
  let parts = n;
  while (heap.size > 0) {
    const entry = heap.pop();
    const rank = Math.floor(entry / POSITION);
    const i = entry - rank * POSITION;
    if (pairRank[i] !== rank) continue; // stale: the pair changed or `i` was merged away
    const j = next[i] as number;
    pairRank[j] = Number.POSITIVE_INFINITY;
    next[i] = next[j] as number;
    if ((next[i] as number) < n) prev[next[i] as number] = i;
    parts -= 1;
    rate(i);
    if ((prev[i] as number) >= 0) rate(prev[i] as number);
  }
  return parts;
}

/** Pieces up to this many bytes are merged by a plain scan: no allocation, fewer steps. */
const SHORT_PIECE = 32;
const bounds = new Int32Array(SHORT_PIECE + 1);

/** {@link mergeCount} for a short piece: find the best pair by scanning part boundaries. */
function mergeCountShort(key: string, ranks: RankTable): number {
  let parts = key.length;
  for (let i = 0; i <= parts; i++) bounds[i] = i;
  for (;;) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let k = 0; k + 1 < parts; k++) {
      const rank = ranks.get(key.slice(bounds[k], bounds[k + 2]));
      if (rank !== undefined && rank < best) {
        best = rank;
        at = k;
      }
    }
    if (at < 0) return parts;
    bounds.copyWithin(at + 1, at + 2, parts + 1);
    parts -= 1;
  }
}

/** Longest piece merged whole (bytes); longer ones are merged window by window. */
const WINDOW = 4096;
/** Counts of recent windows: a long run repeats the same window over and over. */
const windowCounts = new Map<string, number>();

function mergeCountWindowed(key: string, ranks: RankTable, window: number): number {
  let total = 0;
  for (let at = 0; at < key.length; at += window) {
    const part = key.slice(at, at + window);
    let count = windowCounts.get(part);
    if (count === undefined) {
      count = mergeCount(part, ranks);
      if (windowCounts.size >= 64) windowCounts.clear();
      windowCounts.set(part, count);
    }
    total += count;
  }
  return total;
}

/**
 * {@link countTokens} with a given rank table and window; exported so tests can count table
 * lookups (the work done) and compare against whole-piece merging (`window` = Infinity).
 */
export function countTokensWith(text: string, ranks: RankTable, window = WINDOW): number {
  // The contraction groups need not capture: fewer allocations per match.
  pattern ??= new RegExp(o200kBase.pat_str.replaceAll("('s|", "(?:'s|"), "gu");
  let total = 0;
  for (const match of text.matchAll(pattern)) {
    const key = binaryKey(match[0]);
    if (key.length === 1 || ranks.get(key) !== undefined) total += 1;
    else if (key.length <= SHORT_PIECE) total += mergeCountShort(key, ranks);
    else if (key.length <= window) total += mergeCount(key, ranks);
    else total += mergeCountWindowed(key, ranks, window);
  }
  return total;
}

/**
 * Counts tokens with the o200k_base encoding (GPT-4o family), the measure PageIndex uses for
 * its size thresholds. Equal to js-tiktoken's `encode(text).length` (special-token text
 * counted as plain text) except for single pre-tokenised pieces over 4 KiB, merged in 4 KiB
 * windows (see the module comment); deterministic, offline, and O(n log n) even for one long
 * run without whitespace (base64, data URIs, ruler lines).
 */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countTokensWith(text, o200kRanks());
}
