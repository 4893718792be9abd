import { jsonrepair } from "jsonrepair";

/**
 * Pulls a JSON value out of a model's free-text answer: strips code fences and prose around the
 * first object or array, and repairs small syntax errors (trailing commas, single quotes, missing
 * brackets, Python literals). Returns `undefined` when nothing JSON-like is there.
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
