/**
 * `pi.on(event, handler)` as kernel taps: one table entry per event, each tapping the kernel hook
 * of the same name once per handler (named with the extension's path), translating the hook's
 * payload into pi's event and the handler's answer back. Dispatch, ordering and failure policy
 * (a throwing tool_call handler blocks; others are isolated and reported) are the hooks' own.
 */
import { resolve } from "node:path";
import { boundaryState, outcomeOf } from "./boundary.js";
import { PI1_ADAPTERS } from "./event-adapters-pi1.js";
import { answered, notifyAdapter as notify, RELEASED, type Adapter, type Result } from "./event-site.js";
import type { ExtensionEventName } from "./types/events.js";
import { mcpServersChange } from "./mcp-servers.js";

export { RELEASED, type Call } from "./event-site.js";
export { toCustomMessage } from "./actions.js";

/**
 * pi fires `model_select` only for a change made in a session. Atomic's startup choice (and a
 * resumed session's restored model) comes before the session exists, when a handler's
 * `appendEntry` or `ctx.sessionManager` would fail: those are held and given to the handler right
 * after the first `session_start`, in the order they came.
 */
const modelSelectOnceSessionStarted: Adapter = ({ hooks, tap, call, host }) => {
  const toEvent = (p: { model: unknown; previousModel?: unknown; source: string }) => ({ type: "model_select", model: p.model, previousModel: p.previousModel, source: p.source });
  let held: object[] | undefined = "session_start" in hooks && !host.sessionStarted ? [] : undefined;
  hooks.session_start?.tapPromise({ name: tap.name, order: "post" }, async () => {
    const events = held;
    held = undefined;
    for (const event of events ?? []) await call(event);
  });
  hooks.model_select.tapPromise(tap, async (payload) => {
    if (held) held.push(toEvent(payload));
    else await call(toEvent(payload));
  });
};

/**
 * Every event Atomic fires, by name; pi 1.x's newer events are in `event-adapters-pi1.ts`. The
 * two tree events exist in pi only: Atomic has no tree navigation, so they never fire.
 */
export const EVENT_ADAPTERS: Record<ExtensionEventName, Adapter | undefined> = {
  ...PI1_ADAPTERS,
  session_start: notify("session_start", (p) => ({ type: "session_start", ...p })),
  session_info_changed: notify("session_info_changed", (p) => ({ type: "session_info_changed", ...p })),
  session_compact: notify("session_compact", (p) => ({ type: "session_compact", ...p, willRetry: p.reason === "overflow" })),
  session_shutdown: notify("session_shutdown", (p) => ({ type: "session_shutdown", ...p })),
  agent_start: notify("agent_start", () => ({ type: "agent_start" })),
  agent_end: notify("agent_end", (p) => ({ type: "agent_end", messages: p.messages })),
  agent_settled: notify("agent_settled", (p) => ({ type: "agent_settled", aborted: p.aborted })),
  turn_start: notify("turn_start", (p) => ({ type: "turn_start", turnIndex: p.turnIndex, timestamp: Date.now() })),
  turn_end: ({ hooks, tap, call, host }) =>
    hooks.turn_end.tapPromise(tap, async (p) => {
      await call({ type: "turn_end", turnIndex: p.turnIndex, message: p.message, toolResults: p.toolResults, ...boundaryState(host, outcomeOf(p.message)) });
    }),
  message_start: notify("message_start", (p) => ({ type: "message_start", message: p.message })),
  message_update: notify("message_update", (p) => ({ type: "message_update", message: p.message, assistantMessageEvent: p.assistantMessageEvent })),
  tool_execution_start: notify("tool_execution_start", (p) => ({ type: "tool_execution_start", ...p })),
  tool_execution_update: notify("tool_execution_update", (p) => ({ type: "tool_execution_update", ...p })),
  tool_execution_end: notify("tool_execution_end", (p) => ({ type: "tool_execution_end", ...p })),
  model_select: modelSelectOnceSessionStarted,
  thinking_level_select: notify("thinking_level_select", (p) => ({ type: "thinking_level_select", ...p })),
  before_provider_headers: notify("before_provider_headers", (p) => ({ type: "before_provider_headers", headers: p.headers, model: p.model })),
  after_provider_response: notify("after_provider_response", (p) => ({ type: "after_provider_response", ...p })),
  mcp_servers_change: mcpServersChange,
  session_before_tree: undefined,
  session_tree: undefined,

  session_before_switch: ({ hooks, tap, call }) =>
    hooks.session_before_switch.tapPromise(tap, async (payload) => {
      const answer = await call({ type: "session_before_switch", ...payload });
      if (answer === RELEASED) return hooks.session_before_switch.veto!("released by abort");
      return answered<Result<"session_before_switch">>(answer)?.cancel ? { cancel: true } : undefined;
    }),
  session_before_fork: ({ hooks, tap, call }) =>
    hooks.session_before_fork.tapPromise(tap, async (payload) => {
      const answer = await call({ type: "session_before_fork", ...payload });
      if (answer === RELEASED) return hooks.session_before_fork.veto!("released by abort");
      return answered<Result<"session_before_fork">>(answer)?.cancel ? { cancel: true } : undefined;
    }),
  session_before_compact: ({ hooks, tap, call }) =>
    hooks.session_before_compact.tapPromise(tap, async (payload) => {
      // pi hands handlers plain objects: a copy of the frozen preparation (theirs to read, proxy or change).
      const { preparation, branchEntries } = structuredClone({ preparation: payload.preparation, branchEntries: payload.branchEntries });
      const answer = await call({ type: "session_before_compact", ...payload, preparation, branchEntries, willRetry: payload.reason === "overflow" });
      if (answer === RELEASED) return hooks.session_before_compact.veto!("released by abort");
      const result = answered<Result<"session_before_compact">>(answer);
      if (result?.cancel) return { cancel: true };
      // Atomic's compactedText, or pi's compaction {summary, firstKeptEntryId?, details?}: the compactor reads both.
      if (result?.compaction !== undefined) return { compaction: result.compaction };
      return result?.compactedText !== undefined ? { compactedText: result.compactedText } : undefined;
    }),
  project_trust: ({ hooks, tap, call }) =>
    hooks.project_trust.tapPromise(tap, async (payload) => {
      const trusted = answered<Result<"project_trust">>(await call({ type: "project_trust", ...payload }))?.trusted;
      return trusted === "yes" || trusted === "no" ? { trusted } : undefined;
    }),
  tool_call: ({ hooks, tap, call }) =>
    hooks.tool_call.tapPromise(tap, async (payload) => {
      // The same input object: a handler may rewrite the arguments in place.
      const parent = payload.parentToolCallId === undefined ? {} : { parentToolCallId: payload.parentToolCallId };
      const answer = await call({ type: "tool_call", toolCallId: payload.toolCallId, toolName: payload.toolName, input: payload.input, ...parent });
      if (answer === RELEASED) return hooks.tool_call.veto!("the call was aborted");
      const result = answered<Result<"tool_call">>(answer);
      if (!result?.block) return undefined;
      return { block: true, ...(typeof result.reason === "string" ? { reason: result.reason } : {}), ...(result.terminate === true ? { terminate: true } : {}) };
    }),
  user_bash: ({ hooks, tap, call, host, record }) =>
    hooks.user_bash.tapPromise(tap, async (payload) => {
      const answer = await call({ type: "user_bash", command: payload.command, excludeFromContext: payload.excludeFromContext, cwd: payload.cwd });
      if (answer === RELEASED) return hooks.user_bash.veto!("the command was aborted");
      const result = answered<Result<"user_bash">>(answer);
      if (result?.block) return { block: true, ...(typeof result.reason === "string" ? { reason: result.reason } : {}) };
      if (result?.result) {
        const given = result.result;
        return { result: { ...given, output: String(given.output ?? ""), cancelled: given.cancelled === true, truncated: given.truncated === true } };
      }
      if (result?.operations !== undefined) {
        // It asked to run the command elsewhere (ssh, a container): running it here instead would be wrong.
        const reason = "returning { operations } (a custom shell backend) is not supported by Atomic; return { result } to answer the command instead";
        if (!record.warnedOperations) host.report(record.path, "user_bash", reason);
        record.warnedOperations = true;
        return { block: true, reason: `Command not run: ${record.path} asked for a custom shell backend, which Atomic does not support` };
      }
      return undefined;
    }),

  input: ({ hooks, tap, call }) =>
    hooks.input.tapPromise(tap, async (payload) => {
      if (payload.handled || payload.rejected !== undefined) return payload;
      const event = {
        type: "input",
        text: payload.text,
        images: payload.images,
        source: payload.source,
        ...(payload.streamingBehavior ? { streamingBehavior: payload.streamingBehavior } : {}),
      };
      const result = answered<Result<"input">>(await call(event));
      if (result?.action === "handled") return { ...payload, handled: true };
      if (result?.action === "transform" && typeof result.text === "string") return { ...payload, text: result.text, ...(result.images ? { images: result.images } : {}) };
      return payload;
    }),
  context: ({ hooks, tap, call, host }) =>
    hooks.context.tapPromise(tap, async (payload) => {
      // Handlers get a copy they may mutate: the live conversation is never touched.
      const messages = host.ownsMessages(payload.messages) ? payload.messages : host.ownMessages(structuredClone(payload.messages));
      const result = answered<Result<"context">>(await call({ type: "context", messages }));
      return Array.isArray(result?.messages) ? { ...payload, messages: host.ownMessages(result.messages) } : { ...payload, messages };
    }),
  message_end: ({ hooks, tap, call, host, record }) =>
    hooks.message_end.tapPromise(tap, async (payload) => {
      const replacement = answered<Result<"message_end">>(await call({ type: "message_end", message: payload.message }))?.message;
      if (!replacement) return payload;
      if (replacement.role !== payload.message.role) {
        host.report(record.path, "message_end", `a replacement message must keep the role "${payload.message.role}" (got "${String((replacement as { role?: unknown }).role)}")`);
        return payload;
      }
      return { ...payload, message: replacement };
    }),
  tool_result: ({ hooks, tap, call }) =>
    hooks.tool_result.tapPromise(tap, async (payload) => {
      const patch = answered<Result<"tool_result">>(await call({ type: "tool_result", ...payload }));
      if (!patch) return payload;
      return {
        ...payload,
        ...(Array.isArray(patch.content) ? { content: patch.content } : {}),
        ...(patch.details !== undefined ? { details: patch.details } : {}),
        ...(typeof patch.isError === "boolean" ? { isError: patch.isError } : {}),
      };
    }),
  before_provider_request: ({ hooks, tap, call }) =>
    hooks.before_provider_request.tapPromise(tap, async (payload) => {
      const answer = await call({ type: "before_provider_request", payload: payload.payload, model: payload.model });
      return answer === RELEASED || answer === undefined ? payload : { ...payload, payload: answer };
    }),
  resources_discover: ({ hooks, tap, call, record }) =>
    hooks.resources_discover.tapPromise(tap, async (payload) => {
      const result = answered<Result<"resources_discover">>(await call({ type: "resources_discover", cwd: payload.cwd, reason: payload.reason }));
      // Relative paths are the extension's own resources: resolved against its folder.
      const paths = (list: unknown) => (Array.isArray(list) ? list.filter((p): p is string => typeof p === "string" && p !== "").map((p) => resolve(record.path, "..", p)) : []);
      return {
        ...payload,
        skillPaths: [...payload.skillPaths, ...paths(result?.skillPaths)],
        promptPaths: [...payload.promptPaths, ...paths(result?.promptPaths)],
        themePaths: [...payload.themePaths, ...paths(result?.themePaths)],
      };
    }),
};
