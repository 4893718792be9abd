import type { TreeIssue } from "../errors.js";
import { ID_PATTERN } from "./schema.js";
import type { TreeDocument } from "./types.js";
import { checkTreeLinks } from "./validate.js";

type Check = (value: unknown) => boolean;
type Fields = Record<string, unknown>;

const isString: Check = (v) => typeof v === "string";
const isPositiveInt: Check = (v) => Number.isInteger(v) && (v as number) > 0;
const isCount: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const isStrings: Check = (v) => Array.isArray(v) && v.every(isString);
const isObject: Check = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);

const POSITION_FIELDS = ["page", "line", "endPage", "endLine"];

/**
 * The node fields navigation reads, with what each must be for it not to fail midway: ids and
 * links (lookups, walks), ranges (page filters, citations), the text it tokenizes and shows.
 */
const NODE_FIELDS: ReadonlyArray<readonly [string, Check]> = [
  ["nodeId", (v) => isString(v) && ID_PATTERN.test(v as string)],
  ["title", isString],
  ["level", isPositiveInt],
  ["parentId", (v) => v === null || isString(v)],
  ["childIds", isStrings],
  ["startPage", optional(isPositiveInt)],
  ["endPage", optional(isPositiveInt)],
  ["ownEndPage", optional(isPositiveInt)],
  ["startLine", optional(isPositiveInt)],
  ["endLine", optional(isPositiveInt)],
  ["ownEndLine", optional(isPositiveInt)],
  ["tokenCount", isCount],
  ["summary", optional(isString)],
  ["prefixSummary", optional(isString)],
  ["branchSummary", optional(isString)],
  ["backMatter", optional(isString)],
  ["position", optional((v) => isObject(v) && POSITION_FIELDS.every((k) => isPositiveInt((v as Fields)[k])))],
  ["metadata", optional(isObject)],
];

/** The document fields navigation reads (names, ranges' bounds, the links' lists). */
const TREE_FIELDS: ReadonlyArray<readonly [string, Check]> = [
  ["docId", isString],
  ["docName", isString],
  ["pageCount", optional(isCount)],
  ["lineCount", optional(isCount)],
  ["pageLabels", optional(isStrings)],
  ["description", optional(isString)],
  ["rootIds", isStrings],
  ["nodes", (v) => Array.isArray(v) && v.every(isObject)],
];

function fieldIssues(
  value: Fields,
  fields: ReadonlyArray<readonly [string, Check]>,
  where: string,
  issues: TreeIssue[],
): void {
  for (const [field, check] of fields) {
    if (!check(value[field])) {
      issues.push({ path: where ? `${where}.${field}` : field, message: "missing or of the wrong type" });
    }
  }
}

/**
 * The checks a tree needs before navigation can rely on it, without a schema validation of
 * every field: the types of the fields navigation reads, then {@link checkTreeLinks} (unique
 * ids, children that exist and name their parent, levels, pre-order, ranges within their parent
 * and the document). For a tree whose bytes are the ones a validating writer produced (a store
 * value under its checksum), where `parseTree` would redo the writer's work; an empty list
 * means navigation can walk it without meeting a missing node or a field of the wrong type.
 */
export function checkTreeStructure(value: unknown): TreeIssue[] {
  if (!isObject(value)) return [{ path: "(root)", message: "not an object" }];
  const tree = value as Fields;
  const issues: TreeIssue[] = [];
  fieldIssues(tree, TREE_FIELDS, "", issues);
  if (issues.length > 0) return issues;
  (tree.nodes as Fields[]).forEach((node, i) => {
    fieldIssues(node, NODE_FIELDS, `nodes[${i}]`, issues);
  });
  return issues.length > 0 ? issues : checkTreeLinks(value as unknown as TreeDocument);
}
