import type { CliContext } from "../context.js";
import { EXIT, plural, printJson } from "../output.js";

/**
 * `pageindex vacuum`: removes what failed, crashed or superseded writes left behind and compacts
 * the catalog (`PageIndexStore.vacuum`). Safe while others read or write: versions younger than
 * the grace period (default 15 min) are kept, since another process may still be writing them.
 */
export async function vacuumStore(ctx: CliContext, options: { grace?: number } = {}): Promise<number> {
  const store = await ctx.store();
  const result = await store.vacuum(options.grace === undefined ? {} : { graceMs: options.grace * 1000 });
  if (ctx.options.json) {
    printJson(ctx.io, result);
    return EXIT.ok;
  }
  ctx.io.out(
    `Removed ${plural(result.removedVersions, "unused version")} (${plural(result.deletedKeys, "key")}), ${plural(result.catalogSegmentsRemoved, "catalog segment")} compacted; kept ${plural(result.youngVersions, "recent version")} (other processes may still be using them).`,
  );
  if (result.foreignKeys.length > 0) {
    ctx.io.out(`${plural(result.foreignKeys.length, "key")} not written by pageindex left untouched.`);
  }
  return EXIT.ok;
}
