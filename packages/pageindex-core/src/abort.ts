/**
 * Cancellation, the DOM way: an aborted load or query rejects with `signal.reason`, which is a
 * `DOMException` named `"AbortError"` for `controller.abort()` (or `"TimeoutError"` for
 * `AbortSignal.timeout()`), like `fetch` and LangChain's own runnables. A reason that is not an
 * `Error` (`controller.abort("user left")`) is wrapped in an `"AbortError"` `DOMException` with
 * the reason as `cause`, so callers can always test `error.name === "AbortError"`.
 */

/** The error an aborted signal rejects with (see the module comment). */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const message = reason === undefined ? "This operation was aborted" : String(reason);
  return Object.assign(new DOMException(message, "AbortError"), { cause: reason });
}

/** Throws {@link abortError} when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * Settles like `work`, or rejects with {@link abortError} as soon as the signal fires, so a
 * model client that ignores the signal cannot keep an aborted load waiting.
 */
export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  throwIfAborted(signal);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
