/** Thinking levels a model accepts, and clamping a requested level onto them. */
import { THINKING_LEVELS } from "./schemas.js";
import type { Model, ThinkingLevel } from "./types.js";

const REASONING_DEFAULT: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

/** In cycle order. No model: every level (nothing to clamp against yet). */
export function thinkingLevelsFor(model: Model | null | undefined): ThinkingLevel[] {
  if (!model) return [...THINKING_LEVELS];
  if (model.thinkingLevels && model.thinkingLevels.length > 0) return model.thinkingLevels;
  return model.reasoning ? REASONING_DEFAULT : ["off"];
}

/** The requested level if allowed, else the nearest allowed level upward, then downward. */
export function clampThinkingLevel(level: ThinkingLevel, allowed: readonly ThinkingLevel[]): ThinkingLevel {
  if (allowed.includes(level)) return level;
  const index = THINKING_LEVELS.indexOf(level);
  for (let i = index + 1; i < THINKING_LEVELS.length; i++) {
    if (allowed.includes(THINKING_LEVELS[i]!)) return THINKING_LEVELS[i]!;
  }
  for (let i = index - 1; i >= 0; i--) {
    if (allowed.includes(THINKING_LEVELS[i]!)) return THINKING_LEVELS[i]!;
  }
  return allowed[0] ?? "off";
}
