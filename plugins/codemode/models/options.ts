/**
 * The options a script may give `models.classify(model, context, options?)` and
 * `models.generateImages(model, context, options?)`: those of pi 1.6's typed calls that are data
 * and so survive the sandbox's JSON crossing. Checked here, at the boundary, so a wrong type fails
 * naming the option as an extension's call would (lib/typed-models/call-options.ts words both),
 * and a function option (which JSON would drop) fails saying why instead of being left out.
 */
import { z } from "zod";
import { describeOptionValue, optionExpectation, type TypedCallOptions } from "../../../lib/typed-models/call-options.js";
import { FUNCTION_MARK } from "../sandbox/protocol.js";
import { describeValue, MODELS_DOC } from "./checks.js";

type Call = "classify" | "generateImages";
type Schemas = Record<string, z.ZodType>;

/** The options a script can send; each must parse to what lib/typed-models takes. */
export type ScriptCallOptions = Pick<
  TypedCallOptions,
  "apiKey" | "headers" | "timeoutMs" | "maxRetries" | "maxRetryDelayMs" | "identity" | "telemetry" | "temperature" | "metadata"
>;

/** Options whose value is a function: they stay with extensions (ctx.modelRegistry). */
const FUNCTION_OPTIONS = ["onPayload", "onResponse", "fetch", "transformHeaders"];

/** Options the call takes from the script's run, not from the script. */
const HOST_OPTIONS: Record<string, string> = {
  signal: "the call is cancelled with the script (an AbortSignal cannot cross the sandbox)",
  // A script's variables could rewrite the provider's address placeholders, and with them where the session's credential goes.
  env: "a script's calls use the session's credentials and environment",
};

const object = z.record(z.string(), z.unknown());
const SHARED: Schemas = {
  apiKey: z.string().min(1),
  headers: z.record(z.string(), z.string().nullable()),
  timeoutMs: z.number().positive(),
  maxRetries: z.number().int().min(0),
  maxRetryDelayMs: z.number().min(0),
  identity: z.object({
    userAgent: z.union([z.literal("short"), z.literal("detailed"), z.object({ custom: z.string() })]).optional(),
    attribution: z.object({ name: z.string(), url: z.string(), categories: z.array(z.string()).optional() }).optional(),
    version: z.string().optional(),
  }),
  telemetry: object,
};
const SCHEMAS: Record<Call, z.ZodObject> = {
  classify: z.strictObject({ ...optionalAll(SHARED), temperature: z.number().positive().optional() }),
  generateImages: z.strictObject({ ...optionalAll(SHARED), metadata: object.optional() }),
};

function optionalAll(schemas: Schemas): Schemas {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, schema.optional()]));
}

/** The script's options for `models.<call>()`, checked; throws naming the first option it cannot take. */
export function checkCallOptions(call: Call, options: unknown): ScriptCallOptions {
  const label = `models.${call}()`;
  // `undefined` crosses the sandbox as null.
  if (options === undefined || options === null) return {};
  const given = options as Record<string, unknown>;
  if (typeof options !== "object" || Array.isArray(options) || isFunctionMark(options)) {
    throw new Error(`${label} expects an options object as its third argument, got ${isFunctionMark(options) ? "a function" : describeValue(options)}.`);
  }
  for (const name of Object.keys(given)) {
    if (FUNCTION_OPTIONS.includes(name)) {
      throw new Error(
        `${label} options.${name} cannot be given from a script: it takes a function, and functions cannot cross the sandbox (a script's arguments reach the host as JSON). ${FUNCTION_OPTIONS.join(", ")} are for extensions (ctx.modelRegistry.${call}).`,
      );
    }
    if (name in HOST_OPTIONS) throw new Error(`${label} options.${name} cannot be given from a script: ${HOST_OPTIONS[name]}.`);
  }
  const parsed = SCHEMAS[call].safeParse(options);
  if (parsed.success) return parsed.data as ScriptCallOptions;
  const issue = parsed.error.issues[0]!;
  const name = issue.code === "unrecognized_keys" ? issue.keys[0]! : String(issue.path[0]);
  const expected = optionExpectation(call, name);
  if (issue.code === "unrecognized_keys" || !expected) {
    const taken = Object.keys(SCHEMAS[call].shape).join(", ");
    throw new Error(`${label} does not take options.${name}. A script may give: ${taken}. See "Models" in ${MODELS_DOC}.`);
  }
  const value = given[name];
  throw new Error(`${label} options.${name} must be ${expected}, got ${isFunctionMark(value) ? "a function" : describeOptionValue(value)}.`);
}

function isFunctionMark(value: unknown): boolean {
  return typeof value === "object" && value !== null && FUNCTION_MARK in value;
}
