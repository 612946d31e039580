/**
 * `createAgent`'s options, checked before anything boots. Unchecked, a misspelt key (`modle`) was
 * ignored in silence and surfaced much later as "No model selected", and a value of the wrong
 * type failed deep inside a plugin (`model: { provider, id }`: `e.indexOf is not a function`).
 * Each error names the option and what it takes.
 */
import { z } from "zod";
import { ErrorCode, formatValidationError, KernelError, ONE_SHOT } from "../kernel/index.js";
import { didYouMean } from "../lib/closest/index.js";

const MODEL_FORMS = 'a string: "provider/id", an id or a pattern, with an optional ":<thinking>" (e.g. "anthropic/claude-sonnet-4-6:high")';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const anObject = (what: string) => z.custom<object>(isObject, what);
// Custom checks, not unions: each message says in words the forms its option takes.
const isSession = (value: unknown) =>
  value === false || (isObject(value) && Object.entries(value).every(([key, dir]) => key === "dir" && (dir === undefined || typeof dir === "string")));
const isPlugin = (value: unknown) => typeof value === "string" || isObject(value);

const OPTIONS = z
  .object({
    cwd: z.string(),
    agentDir: z.string(),
    provider: z.string({ error: 'a provider name string (e.g. "anthropic")' }),
    model: z.string({ error: MODEL_FORMS }),
    session: z.custom(isSession, "false (in memory only) or { dir?: string }"),
    // Validated by the kernel as the settings files are, with its own messages.
    settings: anObject("a settings object"),
    plugins: z.array(z.custom(isPlugin, "a plugin definition, a built-in plugin's name or a module's path")),
    extensions: z.array(z.string()),
    settingsFiles: z.boolean(),
    env: z.record(z.string(), z.string().optional()),
    log: anObject("a logger ({ info, warn, error })"),
    flags: z.record(z.string(), z.unknown()),
  })
  .partial()
  .strict();

const NAMES = Object.keys(OPTIONS.shape);

/** `options` as given, or a KernelError (`E_CONFIG_INVALID`) naming the first option that is wrong. */
export function checkOptions<T>(options: T): T {
  if (options === undefined) return options;
  const parsed = OPTIONS.safeParse(options, ONE_SHOT);
  if (parsed.success) return options;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys" && issue.path.length === 0) {
    const key = issue.keys[0]!;
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Unknown createAgent option "${key}".${didYouMean(NAMES, key)} The options are: ${NAMES.join(", ")}.`);
  }
  const message = formatValidationError(parsed.error).replace(/^Invalid /, "Invalid createAgent option ");
  throw new KernelError(ErrorCode.CONFIG_INVALID, `${message}; got ${describe(issue.path, options)}`);
}

/** What was given at `path`, in words; a model object gets the string that names it. */
function describe(path: readonly PropertyKey[], options: unknown): string {
  const value = path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key], options);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `${typeof value} ${JSON.stringify(value)}`;
  const { provider, id } = value as { provider?: unknown; id?: unknown };
  const named = path.length === 1 && path[0] === "model" && typeof provider === "string" && typeof id === "string";
  return named ? `an object (for this model, pass model: "${provider}/${id}")` : "an object";
}
