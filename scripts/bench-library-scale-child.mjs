// The child of bench-library-scale.ts' fresh-process measurement, plain JavaScript so that plain
// node runs it on the built packages (no tsx compiling sources on demand, which an application
// would not pay either). Times three things apart: loading the packages (node's own start
// before this file excluded), opening the store, and one retriever query; prints them with the
// process's RSS as one JSON line. Argument: JSON {backend, folder | url + schema, query}.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const loadStarted = performance.now();
const packages = new URL("../packages/", import.meta.url);
const { PageIndexStore, openPostgresStore } = await import(
  new URL("pageindex-store/dist/index.mjs", packages).href
);
const { PageIndexRetriever } = await import(new URL("pageindex-retriever/dist/index.mjs", packages).href);
const job = JSON.parse(process.argv[2] ?? "{}");
// The store loads its engine's driver (libsql's native code, `pg`) when opened: loaded here
// first, from where the store resolves it, so that time counts as loading, not as the query.
const driver = createRequire(new URL("pageindex-store/package.json", packages).pathname).resolve(
  job.backend === "folder" ? "libsql" : "pg",
);
await import(pathToFileURL(driver).href);
const loadMs = performance.now() - loadStarted;

const started = performance.now();
const store =
  job.backend === "folder"
    ? await PageIndexStore.fromPath(job.folder, { readOnly: true, verifyOnRead: job.verify })
    : await openPostgresStore(job.url, {
        schema: job.schema,
        verifyOnRead: job.verify,
        preparedStatements: job.prepared === true,
      });
const opened = performance.now();
const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
const found = await retriever.invoke(job.query);
const firstMs = performance.now() - started;
const rssMb = process.memoryUsage().rss / 2 ** 20;
await store.close();
process.stdout.write(
  `${JSON.stringify({
    loadMs,
    sinceStartMs: performance.now(),
    firstMs,
    openMs: opened - started,
    rssMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    results: found.length,
  })}\n`,
);
