/**
 * What a Claude model does with thinking, decided by the model itself (a user-added Opus 4.7
 * must not get `budget_tokens`, which it rejects), with `compat` overrides: adaptive thinking
 * (effort instead of a budget) from 4.6 on, thinking content hidden unless `display:
 * "summarized"` from Opus 4.7 on, thinking on by default from the 5 generation on.
 */
import type { Model, ThinkingLevel } from "../../lib/llm/index.js";
import { mappedLevelValue } from "../../lib/provider-kit/compat.js";

type OnLevel = Exclude<ThinkingLevel, "off">;

/** Token budgets for models without adaptive thinking. */
const BUDGETS: Record<OnLevel, number> = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 65536 };
/** Adaptive effort; xhigh and max are only reached on models that offer them. */
const EFFORT: Record<OnLevel, string> = { minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" };

interface Generation {
  family: string;
  major: number;
  minor: number;
}

/** "claude-opus-4-7", "claude-opus-4.7-20260416", "anthropic/claude-sonnet-5-5", "claude-fable-5-1". */
export function claudeGeneration(id: string): Generation | undefined {
  const match = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:[-.](\d{1,2})(?!\d))?/.exec(id.toLowerCase());
  if (!match) return undefined;
  return { family: match[1]!, major: Number(match[2]), minor: match[3] ? Number(match[3]) : 0 };
}

const atLeast = (g: Generation | undefined, major: number, minor: number) => Boolean(g && (g.major > major || (g.major === major && g.minor >= minor)));
const isNewFamily = (g: Generation | undefined) => g?.family === "fable" || g?.family === "mythos";

/** Adaptive thinking (an effort level, no budget): Claude 4.6 and later. */
export function isAdaptive(model: Model): boolean {
  const explicit = model.compat?.adaptiveThinking;
  if (typeof explicit === "boolean") return explicit;
  const generation = claudeGeneration(model.id);
  return isNewFamily(generation) || atLeast(generation, 4, 6);
}

/** Models that hide thinking text unless asked for a summary (Opus 4.7 and later, Fable, Mythos). */
export function thinkingDisplay(model: Model): "summarized" | "omitted" | undefined {
  const explicit = model.compat?.thinkingDisplay;
  if (explicit === "summarized" || explicit === "omitted") return explicit;
  const generation = claudeGeneration(model.id);
  if (isNewFamily(generation) || atLeast(generation, 5, 0) || (generation?.family === "opus" && atLeast(generation, 4, 7))) return "summarized";
  return undefined;
}

/** From the 5 generation on, thinking runs unless explicitly disabled. */
export function thinksByDefault(model: Model): boolean {
  const generation = claudeGeneration(model.id);
  return isNewFamily(generation) || atLeast(generation, 5, 0);
}

/** The adaptive effort for a level: the model's `thinkingLevelMap` value, else Anthropic's name. */
export function effortFor(model: Model, level: OnLevel): string {
  return mappedLevelValue(model, level) ?? EFFORT[level];
}

/** The budget for a level: a numeric `thinkingLevelMap` value, else the default table. */
export function budgetFor(model: Model, level: OnLevel): number {
  const mapped = Number(mappedLevelValue(model, level));
  return Number.isInteger(mapped) && mapped > 0 ? mapped : BUDGETS[level];
}
