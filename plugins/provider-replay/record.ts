/**
 * `--record <name>`: every provider stream is also written to `<agent dir>/cassettes/<name>.jsonl`,
 * whatever plugin serves it, so the replay provider can play the session back offline.
 */
import type { AssistantStream, StreamRequest } from "../../lib/llm/index.js";
import type { PluginContext } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import { CassetteRecorder, cassettePath, isValidCassetteName } from "./recorder.js";

/** The tap side of one API's provider hook. */
type StreamTaps = ReturnType<PluginContext["hooks"]["stream"]["for"]>;

export function installRecorder(k: PluginContext): void {
  const name = k.config.cli.record;
  if (typeof name !== "string" || name === "") return;
  if (!isValidCassetteName(name)) {
    k.log.warn(`Ignoring ${optionName(k.config.cli, "--record")} "${name}": a cassette name may use letters, digits, ".", "-" and "_" only.`);
    return;
  }
  const recorder = new CassetteRecorder(cassettePath(k.config.agentDir, name), name, (error) => k.log.warn(`Cannot write cassette ${name}: ${(error as Error).message}`));
  const wrapped = new Set<string>();
  const wrap = (api: string, hook: Pick<StreamTaps, "intercept">): void => {
    if (wrapped.has(api)) return;
    wrapped.add(api);
    // A register interceptor sees the taps already there and every later one.
    hook.intercept({
      register: (tap) => {
        const original = tap.fn as (request: StreamRequest) => AssistantStream | undefined;
        tap.fn = (request: StreamRequest) => {
          const stream = original(request);
          return stream ? recorder.record(request.model, stream) : stream;
        };
        return tap;
      },
    });
  };
  // Hooks created from now on (providers applied after this plugin, extensions)...
  k.hooks.stream.intercept({
    factory: (api, hook) => {
      wrap(String(api), hook);
      return hook;
    },
  });
  // ...and those a provider applied before this plugin created: every API a model uses, once
  // models has registered models.json's custom providers (in the configure phase).
  k.hooks.boot_configure.tap({ name: k.name, after: "models" }, () => {
    for (const api of new Set(
      k
        .service("models")
        .all()
        .map((model) => model.api),
    ))
      wrap(api, k.hooks.stream.for(api));
  });
  k.hooks.shutdown.tapPromise(k.name, () => recorder.flush());
  k.log.info(`Recording provider streams to ${recorder.path}`);
}
