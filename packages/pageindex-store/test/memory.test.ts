import { InMemoryStore } from "@langchain/core/stores";
import { describeStoreBehaviour } from "./store.behaviour.js";

const inMemory = async () => {
  const byteStore = new InMemoryStore<Uint8Array>();
  return { byteStore, reopen: async () => byteStore, cleanup: async () => undefined };
};

describeStoreBehaviour("InMemoryStore", inMemory);
// The full re-validation (the schema of every field, besides the default's checksum and
// structure) must behave the same elsewhere.
describeStoreBehaviour("InMemoryStore", inMemory, false, { verifyOnRead: "full" });
