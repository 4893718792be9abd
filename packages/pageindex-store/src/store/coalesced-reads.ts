/** A caller of a read not made yet. */
interface WaitingRead<V> {
  keys: readonly string[];
  resolve: (values: (V | undefined)[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Merges the key reads callers start in the same turn of the event loop into one read of their
 * keys (each key once), so that a reader opening several documents at once (their heads, then
 * their skeletons, then their texts) costs one round trip a step instead of one a document. A
 * read is only ever merged with reads started before it ran, so each caller still sees values no
 * older than its call.
 * @example
 * ```ts
 * const reads = new CoalescedReads((keys) => readFromServer(keys));
 * const [a, b] = await Promise.all([reads.get(["head.a"]), reads.get(["head.b", "head.a"])]); // one read
 * ```
 */
export class CoalescedReads<V> {
  private waiting: Array<WaitingRead<V>> | undefined;

  /** @param read Values of distinct keys, by key (a missing key absent from the map). */
  constructor(private readonly read: (keys: string[]) => Promise<Map<string, V>>) {}

  /** The values of `keys` in their order (`undefined` for a missing key). */
  get(keys: readonly string[]): Promise<(V | undefined)[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      if (!this.waiting) {
        this.waiting = [];
        // After the microtasks of this turn: reads started by concurrent async chains join in.
        setImmediate(() => void this.flush());
      }
      this.waiting.push({ keys, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const callers = this.waiting ?? [];
    this.waiting = undefined;
    try {
      const found = await this.read([...new Set(callers.flatMap((c) => c.keys))]);
      for (const caller of callers) caller.resolve(caller.keys.map((key) => found.get(key)));
    } catch (error) {
      for (const caller of callers) caller.reject(error);
    }
  }
}
