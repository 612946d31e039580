/**
 * Turns a zod error into the protocol's error text: `Invalid <path>: expected <what>`,
 * naming the first offending field by its dotted path (e.g. `images.0.data`).
 */
import type { z } from "zod";

export function formatValidationError(error: z.ZodError): string {
  return formatValidationIssues(error)[0] ?? "Invalid input";
}

/** Every issue, one `Invalid <path>: expected <what>` each (a config file reports all at once). */
export function formatValidationIssues(error: z.ZodError): string[] {
  return error.issues.map(narrowed).map((issue) => `Invalid ${issue.path.map(String).join(".") || "input"}: expected ${describeExpected(issue)}`);
}

/** A union's failure as the one branch the value got into (`{network: "yes"}` in an object), else as the union's. */
function narrowed(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  const inside = issue.code === "invalid_union" ? issue.errors.flatMap((branch) => (branch[0] && branch[0].path.length > 0 ? [branch[0]] : [])) : [];
  return inside.length === 1 ? narrowed({ ...inside[0]!, path: [...issue.path, ...inside[0]!.path] }) : issue;
}

function describeExpected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      // A schema's own message (zod's own starts "Invalid input") says more than the type's name.
      if (!/^Invalid input/.test(issue.message)) return issue.message.replace(/^expected /, "");
      return issue.expected === "int" ? "integer" : String(issue.expected);
    case "invalid_value":
      return issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small": // not inclusive: .positive(), .gt(n); 0 is no "value >= 0"
      return issue.origin === "string" ? `a string of at least ${String(issue.minimum)} characters` : `a value ${issue.inclusive === false ? ">" : ">="} ${String(issue.minimum)}`;
    case "too_big":
      return issue.origin === "string" ? `a string of at most ${String(issue.maximum)} characters` : `a value ${issue.inclusive === false ? "<" : "<="} ${String(issue.maximum)}`;
    case "invalid_union": // what each branch wanted: `one of "off", "read-only" or object`
      return issue.errors.flatMap((branch) => (branch[0] ? [describeExpected(branch[0])] : [])).join(" or ") || "a valid value";
    case "unrecognized_keys":
      return `no extra keys (${issue.keys.join(", ")})`;
    default:
      return issue.message.replace(/^Invalid input:?\s*/i, "") || "a valid value";
  }
}

/**
 * Parse options for inputs validated once or a few times (commands, config files): zod's JIT
 * compiles a fast path per object schema on first parse, which costs more than it saves here.
 */
export const ONE_SHOT = Object.freeze({ jitless: true });
