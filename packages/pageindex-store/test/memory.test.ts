import { InMemoryStore } from "@langchain/core/stores";
import { describeStoreBehaviour } from "./store.behaviour.js";

const inMemory = async () => {
  const byteStore = new InMemoryStore<Uint8Array>();
  return { byteStore, reopen: async () => byteStore, cleanup: async () => undefined };
};

describeStoreBehaviour("InMemoryStore", inMemory);
// The fast read path (checksum instead of full re-validation) must behave the same elsewhere.
describeStoreBehaviour("InMemoryStore", inMemory, false, { verifyOnRead: "checksum" });
