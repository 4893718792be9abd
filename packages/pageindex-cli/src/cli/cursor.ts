/** What a terminal needs to show its cursor again (cli-progress hides it while a bar is drawn). */
export const SHOW_CURSOR = "\u001b[?25h";

const EXIT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Shows the cursor on `stream` again however the process ends while a bar is drawn: an exit
 * (`process.exit` included, as `index`'s second Ctrl-C does), or Ctrl-C / a kill signal nobody
 * else handles (Node's default handling skips cli-progress's own restore; the signal is
 * re-raised after the cursor is restored, so the exit status stays the signal's). A signal
 * another listener handles (`index`'s graceful first Ctrl-C) is left to it. Returns the
 * function that removes the guard once the bar is stopped.
 */
export function restoreCursorOnExit(stream: NodeJS.WritableStream): () => void {
  const restore = () => {
    stream.write(SHOW_CURSOR);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    release();
    restore();
    process.kill(process.pid, signal);
  };
  function release() {
    process.removeListener("exit", restore);
    for (const signal of EXIT_SIGNALS) process.removeListener(signal, onSignal);
  }
  process.once("exit", restore);
  for (const signal of EXIT_SIGNALS) process.on(signal, onSignal);
  return release;
}
