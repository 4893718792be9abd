import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Model answers kept on disk (one JSON line per answer: `{key, step, value}`), keyed by a hash
 * of the model's id and the whole prompt, so a second run over unchanged inputs — the same seed,
 * the same documents, the same model — reuses the answers instead of paying for them again.
 * Only validated answers are kept. A damaged line is skipped (that answer is asked again).
 *
 * @example
 * ```ts
 * const cache = await ModelAnswerCache.open(".pageindex-eval/model-cache.jsonl");
 * const key = ModelAnswerCache.key("openai:gpt-4o-mini", "generate-question", prompt);
 * cache.get(key) ?? (await cache.put(key, "generate-question", await ask()));
 * ```
 */
export class ModelAnswerCache {
  readonly path: string;
  private readonly entries: Map<string, unknown>;
  private writes: Promise<void> = Promise.resolve();
  /** Answers found in the cache since it was opened. */
  hits = 0;

  private constructor(path: string, entries: Map<string, unknown>) {
    this.path = path;
    this.entries = entries;
  }

  /** Opens (or starts) the cache file at `path`; a missing file is an empty cache. */
  static async open(path: string): Promise<ModelAnswerCache> {
    const entries = new Map<string, unknown>();
    let text = "";
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as { key?: unknown; value?: unknown };
        if (typeof entry.key === "string" && "value" in entry) entries.set(entry.key, entry.value);
      } catch {
        // A line cut by a killed run: that answer is asked for again.
      }
    }
    return new ModelAnswerCache(path, entries);
  }

  /** The key of one call: the model's id and every part of the prompt, hashed. */
  static key(modelId: string, ...prompt: string[]): string {
    const hash = createHash("sha256");
    for (const part of [modelId, ...prompt]) hash.update(`${part.length}:${part}`);
    return hash.digest("hex");
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached answer, or `undefined`. */
  get(key: string): unknown {
    if (!this.entries.has(key)) return undefined;
    this.hits += 1;
    return this.entries.get(key);
  }

  /** Keeps an answer (in memory at once, on disk in call order). */
  async put(key: string, step: string, value: unknown): Promise<void> {
    this.entries.set(key, value);
    const line = `${JSON.stringify({ key, step, value })}\n`;
    this.writes = this.writes
      .catch(() => undefined) // one failed write must not block the ones after it
      .then(async () => {
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(this.path, line);
      });
    await this.writes;
  }
}
