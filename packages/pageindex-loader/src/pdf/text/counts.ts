/** The key with the highest count (the first met on a tie), or `fallback` for an empty map. */
export function mostCommon<K>(counts: ReadonlyMap<K, number>, fallback: K): K {
  let best = fallback;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}
