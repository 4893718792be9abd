/** Letters in a text (any script). */
export const letterCount = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

/** Words in a text: whitespace-separated runs holding a letter. */
export const wordCount = (text: string): number => text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
/** A line that is only a date, a year or an edition date: "(December 2020)", "2023", "May 1, 2002". */
const DATE = new RegExp(
  `^[(\\[]?\\s*(?:${MONTH}\\s+(?:\\d{1,2},?\\s+)?\\d{4}|\\d{1,2}\\s+${MONTH}\\s+\\d{4}|\\d{4}(?:-\\d{2}){0,2}|\\d{1,2}/\\d{1,2}/\\d{2,4})\\s*[)\\]]?$`,
  "i",
);

/** Whether a line holds nothing but a date. */
export const isDateLine = (text: string): boolean => DATE.test(text.trim());

/** Whether a text reads as prose rather than code or a table: mostly letters and spaces. */
export function isProse(text: string): boolean {
  const plain = (text.match(/[\p{L}\s]/gu) ?? []).length;
  return text.length > 0 && plain / text.length >= 0.8 && !/[;{}]|\w\(/.test(text);
}
