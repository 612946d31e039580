/**
 * Plugin `models`: the model catalog (built-ins + models.json + provider plugins), credentials
 * (auth.json > env > models.json), the startup model choice, the model/thinking commands, the
 * prompt preflight (unsupported saved default, no model, no key) and `--record` cassettes.
 */
import { STAGE, definePlugin, type PluginContext } from "../../kernel/index.js";
import { builtinProviders } from "./catalog.js";
import { modelFlags, modelSettings } from "./declarations.js";
import { modelCommands } from "./commands.js";
import { CassetteRecorder, cassettePath, isValidCassetteName } from "./recorder.js";
import { ModelRegistry } from "./registry.js";
import { ModelSelection } from "./selection.js";

export type { ModelsApi, ProviderRegistration, AuthStatus } from "./api.js";

export default definePlugin({
  name: "models",
  provides: ["models"],
  requires: ["agent", "settings"],
  settings: modelSettings,
  flags: modelFlags,
  description: "Model catalog, credentials, model selection and the model/thinking commands.",
  async apply(k) {
    const registry = new ModelRegistry({ env: k.config.env, agentDir: k.config.agentDir, warn: (message) => k.log.warn(message) });
    // models.json first: its blocks patch providers as they register (built-ins and plugins).
    await registry.loadConfig();
    for (const provider of builtinProviders()) registry.registerProvider(provider);
    registry.registerCustomProviders();
    k.provide("models", registry);

    const agent = k.service("agent");
    const selection = new ModelSelection(k, registry, agent);
    for (const command of modelCommands(registry, selection, agent)) k.registerCommand(command);
    agent.addStateContributor(() => selection.state());

    // Last, so provider plugins (and extension providers) have registered before we judge.
    k.hooks.boot.tapPromise({ name: k.name, stage: STAGE.LAST }, () => selection.applyStartup());
    k.hooks.prompt_preflight.tapPromise(k.name, async () => selection.preflight());
    k.hooks.session_start.tapPromise(k.name, async ({ reason }) => {
      if (reason === "new" || reason === "resume" || reason === "fork") selection.reevaluateLock();
    });

    installRecorder(k);
  },
});

/** `--record <name>`: every provider stream is also written to `<agent dir>/cassettes/<name>.jsonl`. */
function installRecorder(k: PluginContext): void {
  const name = k.config.cli.record;
  if (typeof name !== "string" || name === "") return;
  if (!isValidCassetteName(name)) {
    k.log.warn(`Ignoring --record "${name}": a cassette name may use letters, digits, ".", "-" and "_" only.`);
    return;
  }
  const recorder = new CassetteRecorder(cassettePath(k.config.agentDir, name), name, (error) =>
    k.log.warn(`Cannot write cassette ${name}: ${(error as Error).message}`),
  );
  // Providers tap after this plugin (they depend on it), so every stream hook they create is
  // wrapped here, whatever the API.
  k.hooks.stream.intercept({
    factory: (_api, hook) => {
      hook.intercept({
        register: (tap) => {
          const original = tap.fn as (request: Parameters<typeof hook.call>[0]) => ReturnType<typeof hook.call>;
          tap.fn = (request: Parameters<typeof hook.call>[0]) => {
            const stream = original(request);
            return stream ? recorder.record(request.model, stream) : stream;
          };
          return tap;
        },
      });
      return hook;
    },
  });
  k.hooks.shutdown.tapPromise(k.name, () => recorder.flush());
  k.log.info(`Recording provider streams to ${recorder.path}`);
}
