import { RetrieverError } from "../errors.js";

/** A page-range string such as "5-7,12" could not be used. */
export class InvalidPageRangeError extends RetrieverError {}

/**
 * Parses "5-7,12" into sorted, distinct 1-based pages. Accepts spaces and en dashes.
 * @throws {InvalidPageRangeError} on empty input, bad syntax, reversed or out-of-range pages,
 * or more than `maxPages` pages.
 */
export function parsePageRanges(
  spec: string,
  options: { pageCount?: number; maxPages?: number } = {},
): number[] {
  const maxPages = options.maxPages ?? 50;
  const text = spec.trim();
  if (!text) throw new InvalidPageRangeError('empty page range; write pages like "5-7,12"');
  const pages = new Set<number>();
  for (const raw of text.split(/[,;]/)) {
    const part = raw.trim();
    if (!part) continue;
    const match = /^(\d+)\s*(?:[-–—]\s*(\d+))?$/.exec(part);
    if (!match) throw new InvalidPageRangeError(`"${part}" is not a page or a range like "5-7"`);
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (start < 1) throw new InvalidPageRangeError(`pages start at 1 (got "${part}")`);
    if (end < start) throw new InvalidPageRangeError(`range "${part}" ends before it starts`);
    if (options.pageCount !== undefined && end > options.pageCount) {
      throw new InvalidPageRangeError(`"${part}" is beyond the last page (${options.pageCount})`);
    }
    if (end - start + 1 > maxPages)
      throw new InvalidPageRangeError(`"${part}" spans more than ${maxPages} pages`);
    for (let p = start; p <= end; p += 1) pages.add(p);
    if (pages.size > maxPages)
      throw new InvalidPageRangeError(`more than ${maxPages} pages requested at once`);
  }
  if (pages.size === 0) throw new InvalidPageRangeError('no pages given; write pages like "5-7,12"');
  return [...pages].sort((a, b) => a - b);
}
