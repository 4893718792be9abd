/** One way of writing a prompt (its summaries shortened, its lookahead cut) and what it costs. */
export interface PromptVariant<T> {
  value: T;
  /** Tokens of the prompt written this way. */
  tokens: number;
  /** Most tokens this variant may take. */
  limit: number;
}

/** How a prompt was fitted to its budget. */
export type FittedPrompt<T, P> =
  | { kind: "fits"; value: T }
  /** No variant fits: the candidates split across prompts of the same round trip (none dropped). */
  | { kind: "split"; parts: P[] }
  /** No variant fits and there is nothing to split: the last (shortest) variant and its size. */
  | { kind: "over"; value: T; tokens: number };

/**
 * Fits a prompt to its token budget — the one routine every prompt of a search goes through:
 * the variants are tried in order, longest summaries first, and the first within its limit is
 * sent; when none fits, the candidates are split across prompts (`split`, when they can be)
 * instead of being dropped; otherwise the shortest variant is reported as over its limit and the
 * caller decides (send it anyway, expand instead, or throw). Variants are written lazily, so a
 * prompt that fits at once is written once.
 */
export function fitPrompt<T, P>(
  variants: Iterable<PromptVariant<T>>,
  split?: () => P[] | undefined,
): FittedPrompt<T, P> {
  let last: PromptVariant<T> | undefined;
  for (const variant of variants) {
    if (variant.tokens <= variant.limit) return { kind: "fits", value: variant.value };
    last = variant;
  }
  const parts = split?.();
  if (parts && parts.length > 0) return { kind: "split", parts };
  if (!last) throw new Error("fitPrompt: no variant given");
  return { kind: "over", value: last.value, tokens: last.tokens };
}
