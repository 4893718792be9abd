// What a warm library-wide query reads from the byte store, clock-free: the bench's questions
// (scripts/bench-library-scale.ts, past its warm-up), each `mget` the store makes recorded with
// its keys by kind (head, skeleton, derived artifact, texts…) and bytes. Prints per query the
// round trips (mget calls), keys and bytes, and the sequence of the first few queries.
//
// Usage (built packages): npx tsx scripts/trace-library-reads.ts --backend folder|postgres
//   --docs 100000 [--queries 40] [--show 3] [--verify full|checksum]
// Opens the bench's kept libraries read-only (folder under XDG_CACHE_HOME; PostgreSQL schema
// scale_<docs> at PAGEINDEX_POSTGRES_URL).
import { homedir } from "node:os";
import { join } from "node:path";
import { PageIndexRetriever } from "pageindex-retriever";
import { openPostgresStore, PageIndexStore } from "pageindex-store";
import { libraryQuestions } from "./generated-library.js";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const BACKEND = option("backend", "folder");
const DOCS = Number(option("docs", "100000"));
const QUERIES = Number(option("queries", "40"));
const SHOW = Number(option("show", "3"));
const VERIFY = option("verify", "full") as "full" | "checksum";
const WARM_UP = 10;
const POSTGRES_URL = process.env.PAGEINDEX_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:55432/scale_bench";

async function open(): Promise<PageIndexStore> {
  if (BACKEND === "postgres")
    return openPostgresStore(POSTGRES_URL, { schema: `scale_${DOCS}`, verifyOnRead: VERIFY });
  const folder = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
    "pageindex-bench",
    "scale",
    `folder-${DOCS}`,
  );
  return PageIndexStore.fromPath(folder, { readOnly: true, verifyOnRead: VERIFY });
}

/** A key's kind: head, skeleton, text, or the derived artifact's name (namespace and ids dropped). */
function kindOf(key: string): string {
  const parts = key.split(".");
  if (parts[1] === "head") return "head";
  const last = parts[parts.length - 1] ?? key;
  return /^[0-9]+$/.test(last) ? (parts[parts.length - 2] ?? key) : last;
}

interface Call {
  kinds: string[];
  bytes: number;
}

async function main(): Promise<void> {
  const store = await open();
  const calls: Call[] = [];
  const byteStore = store.byteStore;
  const mget = byteStore.mget.bind(byteStore);
  byteStore.mget = async (keys: string[]) => {
    const values = await mget(keys);
    calls.push({ kinds: keys.map(kindOf), bytes: values.reduce((n, v) => n + (v?.byteLength ?? 0), 0) });
    return values;
  };
  try {
    const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
    for (const q of libraryQuestions(100, true, WARM_UP)) await retriever.invoke(q.query);
    const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
    let trips = 0;
    let keys = 0;
    let bytes = 0;
    const byKind = new Map<string, number>();
    for (const [i, question] of questions.entries()) {
      calls.length = 0;
      await retriever.invoke(question);
      trips += calls.length;
      for (const c of calls) {
        keys += c.kinds.length;
        bytes += c.bytes;
        for (const k of c.kinds) byKind.set(k, (byKind.get(k) ?? 0) + 1);
      }
      if (i < SHOW) {
        console.log(`query ${i}: ${calls.length} mget calls`);
        for (const c of calls) {
          const counts = new Map<string, number>();
          for (const k of c.kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
          console.log(`  ${[...counts].map(([k, n]) => `${k}×${n}`).join(" ")}  ${c.bytes} B`);
        }
      }
    }
    const per = (n: number) => (n / QUERIES).toFixed(2);
    console.log(
      `${BACKEND}-${DOCS} (${VERIFY}): a query ${per(trips)} mget calls, ${per(keys)} keys, ${per(bytes)} bytes; keys by kind: ${[...byKind].map(([k, n]) => `${k} ${per(n)}`).join(", ")}`,
    );
  } finally {
    await store.close();
  }
}

await main();
