/** A script's `--name value` argument, or `fallback` when absent (or given last with no value). */
export function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}
