import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { EvalModel, type ModelAnswerCache } from "pageindex-retriever/eval";
import type { CliContext } from "../context.js";
import { describeModelError, type ModelIdentity } from "../model-errors.js";
import { chatModelFromSpec, ModelSpecError, modelLabelOf } from "../model-spec.js";
import { CliError, EXIT } from "../output.js";

/** One model of an evaluation, as the report names it and errors describe it. */
export interface EvalModelChoice {
  model: BaseChatModel;
  label: string;
  identity: ModelIdentity | undefined;
}

/** The models of one run: the retriever's (`--model`), the question writer's and the grader's. */
export interface EvalModels {
  main: EvalModelChoice | undefined;
  generator: EvalModelChoice | undefined;
  grader: EvalModelChoice | undefined;
}

/** A `--generator-model` / `--grader-model` spec resolved; a bad spec is a model error (exit 4). */
async function resolveSpec(ctx: CliContext, spec: string, flag: string): Promise<EvalModelChoice> {
  try {
    const resolved = await chatModelFromSpec(spec, ctx.env);
    if (!resolved) throw new ModelSpecError(`${flag} ${spec}: names no model (offline is not a model)`);
    return {
      model: resolved.model,
      label: modelLabelOf(resolved),
      identity: {
        provider: resolved.provider,
        name: resolved.name,
        ...(resolved.baseURL ? { baseURL: resolved.baseURL } : {}),
      },
    };
  } catch (error) {
    if (error instanceof ModelSpecError)
      throw new CliError(`${flag}: ${error.message}`, EXIT.model, { cause: error });
    throw error;
  }
}

/**
 * The run's models: `--model` for the tree retriever (and, by default, everything else), a
 * separate writer of questions and a separate grader when given.
 */
export async function resolveEvalModels(
  ctx: CliContext,
  options: { generatorModel?: string; graderModel?: string },
): Promise<EvalModels> {
  const model = await ctx.model();
  const main = model ? { model, label: ctx.modelLabel(), identity: ctx.modelIdentity() } : undefined;
  const generator = options.generatorModel
    ? await resolveSpec(ctx, options.generatorModel, "--generator-model")
    : main;
  const grader = options.graderModel ? await resolveSpec(ctx, options.graderModel, "--grader-model") : main;
  return { main, generator, grader };
}

/** Settings every runner of a run shares: one bound on calls in flight, timeouts, the deadline's signal. */
export interface RunnerSettings {
  limit: <T>(work: () => Promise<T>) => Promise<T>;
  timeoutMs: number;
  cache: ModelAnswerCache | undefined;
  signal: AbortSignal;
  onCall: () => void;
}

/** A bounded, cached caller of one of the run's models. */
export function runnerFor(choice: EvalModelChoice, settings: RunnerSettings): EvalModel {
  return new EvalModel({
    model: choice.model,
    label: choice.label,
    limit: settings.limit,
    timeoutMs: settings.timeoutMs,
    signal: settings.signal,
    onCall: settings.onCall,
    ...(settings.cache ? { cache: settings.cache } : {}),
  });
}

/**
 * A failed model call as the user must see it: the model, its URL, the HTTP status, the
 * provider's message and what to try (see `describeModelError`), with passwords hidden.
 */
export function describeEvalFailure(
  ctx: CliContext,
  choice: EvalModelChoice | undefined,
  error: Error,
): string {
  return ctx.redact(describeModelError(error, choice?.identity));
}
