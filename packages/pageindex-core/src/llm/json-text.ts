import { jsonrepair } from "jsonrepair";

/**
 * Longest text given to `jsonrepair`. Repair time grows faster than the text (a 140 KB answer of
 * unbalanced quotes takes over a second, 460 KB some 15 s, blocking the event loop so no timeout
 * or abort can fire); structured answers are far shorter, and valid JSON of any size still parses.
 */
export const MAX_REPAIR_CHARS = 64_000;

/**
 * Pulls a JSON value out of a model's free-text answer: strips code fences and prose around the
 * first object or array, and repairs small syntax errors (trailing commas, single quotes, missing
 * brackets, Python literals) in answers up to {@link MAX_REPAIR_CHARS}. Returns `undefined` when
 * nothing usable is there.
 */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.search(/[[{]/);
  if (start < 0) return undefined;
  const candidate = balancedSlice(body, start);
  for (const attempt of [candidate, body.slice(start)]) {
    try {
      return JSON.parse(attempt);
    } catch {
      if (attempt.length > MAX_REPAIR_CHARS) continue;
      try {
        return JSON.parse(jsonrepair(attempt));
      } catch {
        // try the next, longer candidate
      }
    }
  }
  return undefined;
}

/** The text from `start` to its matching bracket (string-aware), or to the end if unbalanced. */
function balancedSlice(text: string, start: number): string {
  let depth = 0;
  let inString = false;
  let quote = "";
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i += 1;
      else if (ch === quote) inString = false;
      continue;
    }
    if (ch === '"' || ch === "'") {
      inString = true;
      quote = ch;
    } else if (ch === "{" || ch === "[") depth += 1;
    else if (ch === "}" || ch === "]") {
      depth -= 1;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return text.slice(start);
}
