/**
 * Loading what discovery found (this module and everything it imports load only when there is
 * an extension): each extension in load order, then the project's extensions if the project is
 * trusted (`--approve`, the user's `trustedProjects`, or a user extension's `project_trust`
 * answer). Then the plugin's own taps: abort releases pending handlers. (UI replies reach their
 * dialogs through the host's bridge, dialogs.ts.)
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadJsonSchemaSupport, type PluginContext } from "../../kernel/index.js";
import type { ExtensionsHooks } from "./hooks.js";
import type { Discovery } from "./discover.js";
import { ExtensionHost } from "./host.js";
import { loadExtension } from "./load.js";
import { SharedModules } from "./load-module.js";
import { reportStrayErrors } from "./stray-errors.js";
import type { ExtensionSource } from "./record.js";
import type { UiBridge } from "./ui-bridge.js";

/** `limitMs`: how long one extension may take before it is skipped as hung (default `DEFAULT_LOAD_LIMIT_MS`). */
export async function loadFound(k: PluginContext, owned: ExtensionsHooks, found: Discovery, limitMs: number | undefined, bridge: UiBridge | undefined): Promise<ExtensionHost> {
  const { agentDir, installDir } = k.config;
  // One module cache for every agent of the process scope (siblings): each file is evaluated once.
  const modules = k.shared.acquire(`extensions.modules:${agentDir}`, () => new SharedModules(agentDir, () => versionOf(installDir))).value;
  const host = new ExtensionHost(k, owned, modules, bridge);
  modules.attach(host);
  k.hooks.shutdown.tap(k.name, () => modules.detach(host));
  k.hooks.shutdown.tap(k.name, reportStrayErrors(host));
  host.snapshotBuiltinTools();
  // Extension tools are mostly JSON Schema (TypeBox): with the converter loaded, a schema it cannot read fails at registerTool.
  await loadJsonSchemaSupport();
  const loadEach = async (sources: ExtensionSource[]) => {
    for (const source of sources) await loadExtension(host, modules, source, limitMs);
  };
  await loadEach(found.sources);
  if (found.project.length > 0) {
    if (await projectTrusted(host, owned)) await loadEach(found.project);
    else {
      const count = found.project.length;
      k.log.warn(
        `Skipped ${count} project extension${count === 1 ? "" : "s"} in ${found.projectDir} (untrusted project): pass --approve or add the folder to trustedProjects in ${join(agentDir, "settings.json")}`,
      );
    }
  }
  if (host.records.some((record) => record.loaded)) wire(host);
  return host;
}

/** Trusted by configuration, else by the first user or CLI extension that answers `project_trust`. */
async function projectTrusted(host: ExtensionHost, owned: ExtensionsHooks): Promise<boolean> {
  if (host.k.config.trusted) return true;
  if (!owned.project_trust.isUsed()) return false;
  return (await owned.project_trust.promise({ cwd: host.k.config.cwd }))?.trusted === "yes";
}

/** The plugin's own taps, once something loaded. */
function wire(host: ExtensionHost): void {
  const { k } = host;
  // First, before the run is aborted: pending extension work resolves now.
  k.hooks.abort.tap({ name: k.name, order: "pre" }, ({ seq }) => host.gate.release(seq));
  // The system prompt as it ends up (after every extension chained it, with their changes to
  // systemPromptOptions applied): ctx.getSystemPrompt().
  k.hooks.before_agent_start.tap({ name: k.name, order: "post" }, (event) => {
    host.triggeredRun(event.inject, event.prompt);
    const systemPrompt = host.promptOptions.apply(host, event.inject, event.systemPrompt);
    host.systemPrompt = systemPrompt;
    return systemPrompt === event.systemPrompt ? event : { ...event, systemPrompt };
  });
  // Guidelines of the active extension tools (pi's promptGuidelines), after the tool list.
  k.hooks.system_prompt.tap(k.name, (prompt) => {
    const lines = [...host.toolGuidelines].filter(([name]) => k.tools.isActive(name)).flatMap(([, guidelines]) => guidelines.map((line) => `- ${line.trim()}`));
    return lines.length === 0 ? prompt : `${prompt.trimEnd()}\n\nGuidelines for the extension tools:\n${lines.join("\n")}`;
  });
  // Templates and skills for pi's synchronous getCommands, listed once the session is up.
  // Without a session plugin (a bare embedding) there is no session_start to wait for.
  if ("session_start" in k.hooks)
    k.hooks.session_start.tap({ name: k.name, order: "post" }, () => {
      host.sessionStarted = true;
      host.refreshCommandListing();
    });
}

async function versionOf(installDir: string | undefined): Promise<string> {
  if (!installDir) return "unknown";
  try {
    return (JSON.parse(await readFile(join(installDir, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}
