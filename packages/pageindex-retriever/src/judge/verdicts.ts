import type { SkeletonNode } from "pageindex-store";
import { modelReason, normaliseScore, type Selection } from "./schema.js";
import type { NodeVerdict } from "./types.js";

/**
 * Turns a model's selection into one verdict per candidate: named candidates are relevant with
 * the model's score, the others not; ids that were not offered are returned separately.
 */
export function verdictsFromSelection(
  selection: Selection,
  candidates: ReadonlyArray<Pick<SkeletonNode, "nodeId">>,
): { verdicts: NodeVerdict[]; unknown: string[] } {
  const offered = new Set(candidates.map((c) => c.nodeId));
  const chosen = new Map<string, NodeVerdict>();
  const unknown: string[] = [];
  selection.relevant.forEach((item, rank) => {
    const id = resolveId(String(item.id).trim(), offered);
    if (id === undefined) {
      unknown.push(String(item.id));
      return;
    }
    if (chosen.has(id)) return;
    const verdict: NodeVerdict = {
      nodeId: id,
      relevant: true,
      score: normaliseScore(item.score, rank),
      reason: modelReason(item.reason, "selected by the model"),
    };
    if (item.self) verdict.self = true;
    chosen.set(id, verdict);
  });
  const verdicts = candidates.map(
    (c) => chosen.get(c.nodeId) ?? { nodeId: c.nodeId, relevant: false, score: 0, reason: "not selected" },
  );
  return { verdicts, unknown };
}

/** Accepts "0003", "3" (unpadded), "[0003]" and "node 0003" for an offered "0003". */
export function resolveId(raw: string, offered: ReadonlySet<string>): string | undefined {
  if (offered.has(raw)) return raw;
  const cleaned = raw
    .replace(/^\[|\]$/g, "")
    .replace(/^(node|id)\s*[:#]?\s*/i, "")
    .trim();
  if (offered.has(cleaned)) return cleaned;
  if (/^\d+$/.test(cleaned)) {
    const padded = cleaned.padStart(4, "0");
    if (offered.has(padded)) return padded;
  }
  return undefined;
}
