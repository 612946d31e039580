/**
 * Settings keys as plugins declare them: each owns its top-level keys with a zod schema and a
 * scope (who may set it). The host composes them, validates the files and merges them.
 */
import type { z } from "zod";

/**
 * Who may set a key. `any`: user or project. `user`: the user's file only (it runs code or
 * grants trust). `trusted`: a project may set it only when the project is trusted (it runs or
 * relocates something: a shell, a data folder, the transport).
 */
export type SettingScope = "any" | "user" | "trusted";

export interface SettingSpec<S extends z.ZodType = z.ZodType> {
  /** Built on first use: most processes have no settings file to validate. */
  schema: () => S;
  scope: SettingScope;
  description: string;
}

/** @example settings: { retry: defineSetting(() => z.object({ enabled: z.boolean() }).partial(), { description: "..." }) } */
export function defineSetting<S extends z.ZodType>(schema: () => S, options: { scope?: SettingScope; description: string }): SettingSpec<S> {
  return { schema, scope: options.scope ?? "any", description: options.description };
}

export function deepMerge(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (key === "__proto__") continue;
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
