/**
 * A codemode input: JavaScript, optionally opened by one options line
 * (`// @options: {"max_output_tokens": 2000, "timeout_ms": 60000}`). The line is cut from the code
 * but its newline stays, so line numbers in stack traces match the input. Problems (empty input,
 * bad JSON, unknown fields, an options line elsewhere) fail the call before the script runs.
 */
export const OPTIONS_PREFIX = "// @options:";
const FIELDS = "`max_output_tokens` and `timeout_ms`";
/** The largest delay a timer takes. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export interface ScriptOptions {
  maxOutputTokens?: number;
  timeoutMs?: number;
}

export interface ParsedSource {
  code: string;
  options: ScriptOptions;
}

export function parseSource(input: string): ParsedSource {
  if (input.trim() === "") {
    throw new Error('Expected JavaScript source text (non-empty). Provide JS only, optionally with a first line `// @options: {"max_output_tokens": 1000}`.');
  }
  const lines = input.split("\n");
  const elsewhere = lines.findIndex((line, index) => index > 0 && line.trimStart().startsWith(OPTIONS_PREFIX));
  if (elsewhere !== -1) throw new Error(`The ${OPTIONS_PREFIX} line must be the first line of the input; found one on line ${elsewhere + 1}`);
  const first = (lines[0] ?? "").replace(/\r$/, "").trimStart();
  if (!first.startsWith(OPTIONS_PREFIX)) return { code: input, options: {} };
  const newline = input.indexOf("\n");
  const code = newline === -1 ? "" : input.slice(newline);
  if (code.trim() === "") throw new Error("The @options line must be followed by JavaScript source on subsequent lines");
  return { code, options: parseOptions(first.slice(OPTIONS_PREFIX.length).trim()) };
}

function parseOptions(text: string): ScriptOptions {
  const notObject = () => new Error(`@options must be a JSON object with supported fields ${FIELDS}`);
  if (text === "") throw notObject();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`@options must be valid JSON with supported fields ${FIELDS}: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw notObject();
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => key !== "max_output_tokens" && key !== "timeout_ms");
  if (unknown !== undefined) throw new Error(`@options only supports ${FIELDS}; got \`${unknown}\``);
  const options: ScriptOptions = {};
  const tokens = fields.max_output_tokens;
  if (tokens !== undefined) {
    if (!isCount(tokens)) throw new Error("@options field `max_output_tokens` must be a non-negative safe integer");
    options.maxOutputTokens = tokens;
  }
  const timeout = fields.timeout_ms;
  if (timeout !== undefined) {
    if (!isCount(timeout) || timeout === 0 || timeout > MAX_TIMEOUT_MS) throw new Error(`@options field \`timeout_ms\` must be a positive integer up to ${MAX_TIMEOUT_MS}`);
    options.timeoutMs = timeout;
  }
  return options;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
