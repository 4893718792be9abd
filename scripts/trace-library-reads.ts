import { PageIndexRetriever } from "pageindex-retriever";
import { openPostgresStore, PageIndexStore } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { SCALE_POSTGRES_URL, scaleFolder } from "./scale-libraries.js";

const BACKEND = option("backend", "folder");
const DOCS = Number(option("docs", "100000"));
const QUERIES = Number(option("queries", "40"));
const SHOW = Number(option("show", "3"));
const VERIFY = option("verify", "checksum") as "full" | "checksum";
const WARM_UP = 10;

async function open(): Promise<PageIndexStore> {
  if (BACKEND === "postgres")
    return openPostgresStore(SCALE_POSTGRES_URL, { schema: `scale_${DOCS}`, verifyOnRead: VERIFY });
  return PageIndexStore.fromPath(scaleFolder(DOCS), { readOnly: true, verifyOnRead: VERIFY });
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
