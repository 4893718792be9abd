import { afterAll, describe } from "vitest";
import { PostgresLibraryIndex } from "../src/index.js";
import { dropSchema, POSTGRES_URL, postgresReachable, testSchema } from "./helpers/postgres.js";
import { libraryBehaviour } from "./library.behaviour.js";

const available = await postgresReachable("postgres-library.test.ts");

describe.skipIf(!available)("PostgresLibraryIndex (real PostgreSQL server)", () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  libraryBehaviour(async () => {
    const schema = testSchema("library");
    schemas.push(schema);
    return PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema });
  });
});
