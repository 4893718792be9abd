/** A private redis-server for tests that stop or hang it mid-run. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";

/** Whether `redis-server` is on PATH; warns, naming the suite, when not. */
export function hasRedisServer(suite: string): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    console.warn(`[${suite}] SKIPPED: no redis-server on PATH (apt-get install redis-server)`);
    return false;
  }
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a private redis-server and resolves once it accepts connections. */
export async function startRedis(port: number, extraArgs: string[] = []): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extraArgs],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (data: string) => {
      out += data;
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}
