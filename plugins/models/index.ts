/**
 * Plugin `models`: the model catalog (provider plugins register their tables; models.json
 * patches and extends them), credentials (auth.json > env > models.json), the startup model
 * choice, the model/thinking commands and the prompt preflight (unsupported saved default, no
 * model, no key).
 */
import { z } from "zod";
import { UsageError, definePlugin } from "../../kernel/index.js";
import { sharedJsonUpdates } from "../../lib/locked-json/index.js";
import { AuthStore, authFilePath } from "./auth-store.js";
import { cliThinkingLevel, httpIdleTimeoutMs, modelFlags, modelSettings } from "./declarations.js";
import { modelCommands } from "./commands.js";
import { ModelRegistry } from "./registry.js";
import { modelsHookDeclarations } from "./hooks.js";
import { providerRequestHooks } from "./request-hooks.js";
import { resolveScope, scopePatterns } from "./scope.js";
import { ModelSelection } from "./selection.js";
import { savedDefaultProblems } from "./defaults-check.js";
import { noModelMatches } from "./startup.js";

export type { ModelsApi, ModelsDiagnostics, ProviderRegistration, AuthStatus, LoginResolver } from "./api.js";

export default definePlugin({
  name: "models",
  provides: ["models"],
  requires: ["agent", "settings"],
  settings: modelSettings,
  flags: modelFlags,
  description: "Model catalog, credentials, model selection and the model/thinking commands.",
  hooks: modelsHookDeclarations,
  async apply(k) {
    // A bad level fails before anything loads.
    cliThinkingLevel(k.config.cli);
    const { agentDir } = k.config;
    // One credential store per file for the agents of the process: a key one stores or removes, the others use.
    const updates = sharedJsonUpdates(k.shared);
    const auth = k.shared.acquire(`models.auth:${authFilePath(agentDir)}`, () => new AuthStore(agentDir, updates)).value;
    const registry = new ModelRegistry({ env: k.config.env, agentDir, auth, warn: (message) => k.log.warn(message) });
    // models.json first: its blocks patch providers as they register (provider plugins apply after this one).
    await registry.loadConfig();
    registry.requestHooks = providerRequestHooks(k.ownHooks(modelsHookDeclarations));
    const idleTimeoutMs = httpIdleTimeoutMs(k.config.settings.httpIdleTimeoutMs);
    if (idleTimeoutMs !== undefined) registry.httpOptions = { idleTimeoutMs };
    k.provide("models", registry);

    const agent = k.service("agent");
    const selection = new ModelSelection(k, registry, agent);
    registry.scopeSource = () => selection.scope;
    for (const command of modelCommands(registry, selection, agent)) k.registerCommand(command);
    agent.addStateContributor(
      () => selection.state(),
      () => ({
        modelFallbackReason: z.string().optional().meta({ description: "Set while a saved default's provider is unsupported (prompts are refused)." }),
        modelFallbackMessage: z.string().optional().describe("Why prompts are refused, and what to change (with modelFallbackReason)."),
      }),
    );

    // In the configure phase, once provider plugins (and extension providers) have registered:
    // models.json providers no plugin registered become custom providers, then the startup model.
    k.hooks.boot_configure.tapPromise(k.name, async () => {
      registry.registerCustomProviders();
      for (const problem of savedDefaultProblems(registry, k.config.cli, k.config.settings)) k.log.warn(problem);
      await selection.applyStartup(startupScope());
    });
    /** `--models` (a pattern naming nothing is a usage error), else `enabledModels` (warned, skipped). */
    function startupScope() {
      const fromCli = k.config.cli.models !== undefined;
      const patterns = scopePatterns(fromCli ? k.config.cli.models : k.config.settings.enabledModels);
      const scope = resolveScope(registry, patterns);
      for (const pattern of scope.unmatched) {
        if (fromCli) throw new UsageError(noModelMatches(registry, `"${pattern}" in --models`, pattern));
        k.log.warn(`No model matches "${pattern}" in enabledModels (skipped).`);
      }
      return scope.entries;
    }

    // auth.json as it is now: a login (or logout) in another process counts.
    k.hooks.prompt_preflight.tapPromise(k.name, async () => {
      await registry.reloadCredentials();
      return selection.preflight();
    });
    // With sessions (an embedder may run without): a new, loaded or forked session re-judges the locked default.
    if ("session_start" in k.hooks) {
      k.hooks.session_start.tapPromise(k.name, async ({ reason }) => {
        if (reason === "new" || reason === "resume" || reason === "fork") selection.reevaluateLock();
      });
    }
  },
});
