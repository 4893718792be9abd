/**
 * Loads an optional peer dependency on demand (redis, pg), so users of the other backends neither
 * install nor load it; a missing package becomes the error `missing` makes (an install hint),
 * any other failure is rethrown as it is.
 */
export async function importOptionalPeer<T>(
  load: () => Promise<T>,
  missing: (cause: unknown) => Error,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw missing(error);
    throw error;
  }
}
