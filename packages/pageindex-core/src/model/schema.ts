import { z } from "zod/v4";
import type { BuildInfo, LlmUsage, TextPosition, TreeDocument, TreeNode } from "./types.js";
import { TREE_KINDS, TREE_SCHEMA_VERSION } from "./types.js";

const page = z.number().int().positive();
const count = z.number().int().nonnegative();
const jsonRecord = z.record(z.string(), z.unknown());

const usageCore = z.object({
  calls: count,
  promptTokens: count,
  completionTokens: count,
  failures: count,
});

/** Runtime schema of {@link LlmUsage}. */
export const LlmUsageSchema: z.ZodType<LlmUsage> = usageCore.extend({
  byStep: z.record(z.string(), usageCore).optional(),
});

/** Runtime schema of {@link BuildInfo}. */
export const BuildInfoSchema: z.ZodType<BuildInfo> = z.object({
  loader: z.string().min(1),
  structure: z.enum(["headings", "outline", "layout", "llm", "flat", "imported", "mixed"]),
  model: z.string().optional(),
  options: jsonRecord.optional(),
  warnings: z.array(z.string()).optional(),
  usage: LlmUsageSchema.optional(),
});

/** Runtime schema of {@link TextPosition}. */
export const TextPositionSchema: z.ZodType<TextPosition> = z.object({
  page,
  line: page,
  endPage: page,
  endLine: page,
});

/** Node ids end up in store keys, so they share the document id alphabet. */
export const ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Runtime schema of {@link TreeNode} (shape only; links are checked by `validateTree`). */
export const TreeNodeSchema: z.ZodType<TreeNode> = z.object({
  nodeId: z
    .string()
    .regex(ID_PATTERN, "node ids may only contain A-Z a-z 0-9 _ . - and may not start with a dot"),
  title: z.string(),
  level: z.number().int().positive(),
  parentId: z.string().nullable(),
  childIds: z.array(z.string()),
  startPage: page.optional(),
  endPage: page.optional(),
  ownEndPage: page.optional(),
  startLine: page.optional(),
  endLine: page.optional(),
  ownEndLine: page.optional(),
  headingLevel: z.number().int().positive().optional(),
  position: TextPositionSchema.optional(),
  text: z.string(),
  tokenCount: count,
  summary: z.string().optional(),
  prefixSummary: z.string().optional(),
  branchSummary: z.string().optional(),
  backMatter: z
    .enum(["contents", "index", "figures", "tables", "list", "bibliography", "glossary"])
    .optional(),
  metadata: jsonRecord.optional(),
});

/** Runtime schema of {@link TreeDocument} (shape only; links are checked by `validateTree`). */
export const TreeDocumentSchema: z.ZodType<TreeDocument> = z.object({
  schemaVersion: z.literal(TREE_SCHEMA_VERSION),
  docId: z
    .string()
    .regex(ID_PATTERN, "document ids may only contain A-Z a-z 0-9 _ . - and may not start with a dot"),
  docName: z.string(),
  source: z.string().optional(),
  kind: z.enum(TREE_KINDS),
  pageCount: count.optional(),
  lineCount: count.optional(),
  description: z.string().optional(),
  pageLabels: z.array(z.string()).optional(),
  contentHash: z.string().optional(),
  createdAt: z.string(),
  build: BuildInfoSchema,
  metadata: jsonRecord.optional(),
  rootIds: z.array(z.string()),
  nodes: z.array(TreeNodeSchema),
});
