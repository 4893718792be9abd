/**
 * Deterministic PRNG for the benchmarks, so runs are comparable: the evaluation's seeded
 * mulberry32 (the same generator question sampling uses), not a copy of it.
 */
export { seededRandom as rng } from "../packages/pageindex-retriever/src/eval/sample-sections.js";
