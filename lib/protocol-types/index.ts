/**
 * The protocol's TypeScript types (generated from the zod schemas through `atomic schema`) and
 * the helpers the typed client and the SDK build their per-command signatures from. Types only:
 * nothing here runs.
 */
import type { CommandMap } from "./generated/commands.js";
import type { ErrorResponse, Response } from "./generated/responses.js";

export type * from "./generated/commands.js";
export type * from "./generated/events.js";
export type * from "./generated/messages.js";
export type * from "./generated/responses.js";

/** Every command name the built-in plugins register. */
export type CommandType = keyof CommandMap;

/** The record for one command, as sent (`id` optional: echoed exactly when given). */
export type CommandOf<T extends CommandType> = CommandMap[T]["command"];

/** What a command resolves to: its success response or an error response (`undefined` for a reply). */
export type ResponseOf<T extends string> = T extends CommandType
  ? CommandMap[T]["response"] extends undefined
    ? undefined
    : CommandMap[T]["response"] | ErrorResponse
  : Response | undefined;

/** The `data` of a command's success response (`undefined` when it carries none). */
export type DataOf<T extends CommandType> = CommandMap[T]["response"] extends { data: infer D } ? D : undefined;

/**
 * A command a plugin outside the built-ins registers (a user plugin's `greet`): any name that is
 * not a built-in command, with any fields. Built-in commands are checked field by field instead.
 */
export type ExtraCommand<T extends string> = { type: T extends CommandType ? never : T; id?: string | number; [field: string]: unknown };

/** The reasoning levels (`set_thinking_level`). */
export type ThinkingLevel = CommandMap["set_thinking_level"]["command"]["level"];
