/**
 * What a handler returned, checked against the fields its event's result has (pi 1.6's and
 * Atomic's): a key the adapter never reads would be dropped silently, and in a permission gate
 * (`{blocked: true}` for `{block: true}`) that lets the call run. Each such key is reported once
 * per extension and event, naming the field it is probably a slip of. What the adapters do with
 * the answer is unchanged: this only reads it.
 */
import { nearestName } from "../../lib/closest/index.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";

/** The events whose handlers' answers are read, and the fields a result may have. */
const RESULT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  project_trust: ["trusted", "remember"],
  resources_discover: ["skillPaths", "promptPaths", "themePaths"],
  session_before_switch: ["cancel"],
  session_before_fork: ["cancel", "skipConversationRestore"],
  session_before_compact: ["cancel", "compaction", "compactedText"],
  input: ["action", "text", "images"],
  before_agent_start: ["message", "systemPrompt"],
  context: ["messages"],
  context_with_system: ["messages"],
  agent_before_settle: ["entries", "continue"],
  turn_end: ["entries", "continue"],
  message_end: ["message"],
  tool_call: ["block", "reason", "terminate"],
  tool_result: ["content", "details", "structuredContent", "isError", "usage"],
  user_bash: ["block", "reason", "result", "operations"],
};
const INPUT_ACTIONS = ["continue", "transform", "handled"];

/** Whether `event`'s handlers have a result worth checking. */
export const hasResult = (event: string): boolean => Object.hasOwn(RESULT_FIELDS, event);

/** Reports what in `answer` its event ignores (once per extension, event and key); returns `answer` as it is. */
export function checkResult(host: ExtensionHost, record: ExtensionRecord, event: string, payload: object, answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  for (const problem of resultProblems(event, payload, answer)) {
    const key = `${event}\0${problem.key}`;
    if (record.warnedResults.has(key)) continue;
    record.warnedResults.add(key);
    host.report(record.path, event, problem.message);
  }
  return answer;
}

/** Each key of `answer` its event ignores, with what to say about it. Exported for the unit test. */
export function resultProblems(event: string, payload: object, answer: object): { key: string; message: string }[] {
  const fields = RESULT_FIELDS[event];
  if (!fields) return [];
  const given = answer as Record<string, unknown>;
  const problems = Object.keys(given)
    // A field carried over unchanged from the event (`return { ...event, content }`) is no slip.
    .filter((key) => !fields.includes(key) && !(Object.hasOwn(payload, key) && (payload as Record<string, unknown>)[key] === given[key]))
    .map((key) => {
      const meant = nearestName(fields, key);
      const ignored = meant ? `; did you mean "${meant}"? It is ignored` : ", which is ignored";
      return { key, message: `${event} handler returned "${key}"${ignored} (${event} results have ${fields.join(", ")})` };
    });
  if (event === "input") problems.push(...inputProblems(given));
  return problems;
}

/** `input`'s answer is read only with a known `action` (and `transform` only with a string `text`). */
function inputProblems(given: Record<string, unknown>): { key: string; message: string }[] {
  const { action } = given;
  const actions = `the actions are ${INPUT_ACTIONS.map((name) => `"${name}"`).join(", ")}`;
  if (action === undefined) {
    return Object.keys(given).length > 0 ? [{ key: "action=", message: `input handler returned no "action"; the result is ignored (${actions})` }] : [];
  }
  if (typeof action !== "string" || !INPUT_ACTIONS.includes(action)) {
    const meant = typeof action === "string" ? nearestName(INPUT_ACTIONS, action) : undefined;
    const ignored = meant ? `; did you mean "${meant}"? The result is ignored` : ", which is no action; the result is ignored";
    return [{ key: `action=${String(action)}`, message: `input handler returned action ${JSON.stringify(action)}${ignored} (${actions})` }];
  }
  if (action === "transform" && typeof given.text !== "string") {
    return [{ key: "transform-text", message: `input handler returned action "transform" without a string "text" (got ${typeof given.text}); the input is left as it was` }];
  }
  return [];
}
