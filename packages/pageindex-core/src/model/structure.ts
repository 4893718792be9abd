import type { TreeIssue } from "../errors.js";
import { ID_PATTERN } from "./schema.js";
import type { TreeDocument } from "./types.js";
import { checkTreeLinks } from "./validate.js";

type Fields = Record<string, unknown>;

const isString = (v: unknown): v is string => typeof v === "string";
const isPositiveInt = (v: unknown) => Number.isInteger(v) && (v as number) > 0;
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isStrings = (v: unknown) => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is Fields => v !== null && typeof v === "object" && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || typeof v === "string";
const optionalPositiveInt = (v: unknown) => v === undefined || isPositiveInt(v);
const isPosition = (v: unknown) =>
  isObject(v) &&
  isPositiveInt(v.page) &&
  isPositiveInt(v.line) &&
  isPositiveInt(v.endPage) &&
  isPositiveInt(v.endLine);

/**
 * The first node field navigation reads that is missing or of the wrong type: ids and links
 * (lookups, walks), ranges (page filters, citations), the text it tokenizes and shows. Named
 * reads, one after the other: a table of fields read by name costs several times more per node.
 */
function badNodeField(n: Fields): string | undefined {
  if (!isString(n.nodeId) || !ID_PATTERN.test(n.nodeId)) return "nodeId";
  if (!isString(n.title)) return "title";
  if (!isPositiveInt(n.level)) return "level";
  if (n.parentId !== null && !isString(n.parentId)) return "parentId";
  if (!isStrings(n.childIds)) return "childIds";
  if (!optionalPositiveInt(n.startPage)) return "startPage";
  if (!optionalPositiveInt(n.endPage)) return "endPage";
  if (!optionalPositiveInt(n.ownEndPage)) return "ownEndPage";
  if (!optionalPositiveInt(n.startLine)) return "startLine";
  if (!optionalPositiveInt(n.endLine)) return "endLine";
  if (!optionalPositiveInt(n.ownEndLine)) return "ownEndLine";
  if (!isCount(n.tokenCount)) return "tokenCount";
  if (!optionalString(n.summary)) return "summary";
  if (!optionalString(n.prefixSummary)) return "prefixSummary";
  if (!optionalString(n.branchSummary)) return "branchSummary";
  if (!optionalString(n.backMatter)) return "backMatter";
  if (n.position !== undefined && !isPosition(n.position)) return "position";
  if (n.metadata !== undefined && !isObject(n.metadata)) return "metadata";
  return undefined;
}

/** The first document field navigation reads that is missing or of the wrong type. */
function badTreeField(t: Fields): string | undefined {
  if (!isString(t.docId)) return "docId";
  if (!isString(t.docName)) return "docName";
  if (t.pageCount !== undefined && !isCount(t.pageCount)) return "pageCount";
  if (t.lineCount !== undefined && !isCount(t.lineCount)) return "lineCount";
  if (t.pageLabels !== undefined && !isStrings(t.pageLabels)) return "pageLabels";
  if (!optionalString(t.description)) return "description";
  if (!isStrings(t.rootIds)) return "rootIds";
  if (!Array.isArray(t.nodes) || !t.nodes.every(isObject)) return "nodes";
  return undefined;
}

const WRONG_TYPE = "missing or of the wrong type";

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
  const treeField = badTreeField(value);
  if (treeField) return [{ path: treeField, message: WRONG_TYPE }];
  const issues: TreeIssue[] = [];
  (value.nodes as Fields[]).forEach((node, i) => {
    const field = badNodeField(node);
    if (field) issues.push({ path: `nodes[${i}].${field}`, message: WRONG_TYPE });
  });
  return issues.length > 0 ? issues : checkTreeLinks(value as unknown as TreeDocument);
}
