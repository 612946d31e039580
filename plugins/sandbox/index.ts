/**
 * Plugin `sandbox`: confines what the model does. Every command the model starts (the bash tool,
 * `pi.exec`, codemode's calls through those) asks the `sandbox` service to rewrite it into its
 * confined form (bubblewrap on Linux, sandbox-exec on macOS); the file tools ask it to check each
 * path. The policy comes from the `sandbox` setting (a project may only tighten it), `--sandbox
 * MODE` and a session's settings override. Default "off": pi's behaviour. When the sandbox cannot
 * start, commands are refused with the reason, never run unconfined. get_state reports it.
 */
import { definePlugin, defineSetting, UsageError, type PluginContext } from "../../kernel/index.js";
import type {} from "../agent/api.js";
import type {} from "../extensions/api.js";
import type {} from "../session/api.js";
import { ESCALATION_ENTRY, type EscalationDeps } from "./escalation.js";
import { SandboxOff } from "./off.js";
import { composePolicy, describePolicy, SANDBOX_MODES, sandboxModeMeant, sandboxSettingSchema, type SandboxMode, type SandboxSetting } from "./policy.js";
import { sandboxStateSchema } from "./state.js";

export type * from "./api.js";
export { SandboxBlockedError, sandboxOverride } from "./api.js";
export { describePolicy } from "./policy.js";

export default definePlugin({
  name: "sandbox",
  description: "Confines the model's commands (bubblewrap / sandbox-exec) and its file tools to the policy of the sandbox setting; off by default.",
  after: ["agent"],
  provides: ["sandbox"],
  settings: {
    sandbox: defineSetting(sandboxSettingSchema, {
      description:
        'The sandbox for the model\'s commands and file tools: {mode: "off" (default, as pi) | "read-only" | "workspace-write", network: false | true | [hosts], writableRoots, denyRead, approval: "never" | "on-request"}. A project may only tighten it (unless trusted).',
    }),
  },
  flags: [
    {
      name: "--sandbox",
      key: "sandbox",
      value: "<mode>",
      description: `Confine the model's commands and file tools: ${SANDBOX_MODES.join(", ")} (default: the sandbox setting, else off).`,
    },
  ],
  async apply(k) {
    const { config } = k;
    const cliMode = config.cli.sandbox;
    if (cliMode !== undefined && !(SANDBOX_MODES as readonly string[]).includes(cliMode)) {
      const meant = sandboxModeMeant(String(cliMode));
      throw new UsageError(`Invalid --sandbox "${String(cliMode)}": expected one of ${SANDBOX_MODES.join(", ")}${meant ? ` (did you mean --sandbox ${meant}?)` : ""}`);
    }
    const layers = config.settingsLayers;
    const layer = (values: Readonly<Record<string, unknown>> | undefined) => values?.sandbox as SandboxSetting | undefined;
    const { policy, notes } = composePolicy({
      user: layers ? layer(layers.user) : config.settings.sandbox,
      project: layer(layers?.project),
      projectTrusted: config.trusted,
      ...(cliMode ? { cliMode: cliMode as SandboxMode } : {}),
      override: layer(layers?.override),
      cwd: config.cwd,
      agentDir: config.agentDir,
      env: config.env,
    });
    for (const note of notes) k.log.info(note);
    // What confines loads only when a mode is on (off.ts).
    const launcher =
      policy.mode === "off"
        ? new SandboxOff(policy)
        : new (await import("./launcher.js")).SandboxLauncher({
            policy,
            cwd: config.cwd,
            agentDir: config.agentDir,
            env: config.env,
            platform: process.platform,
            escalation: escalationDeps(k, policy.approval),
          });
    k.provide("sandbox", launcher);
    k.maybeService("agent")?.addStateContributor(
      () => ({ sandbox: launcher.state() }),
      () => ({ sandbox: sandboxStateSchema() }),
    );
    if (!launcher.active) return;
    // Tried once in the background, so the first command does not wait and a problem is said at once.
    k.hooks.boot_start.tap(k.name, () => {
      void launcher.probe().then((probe) => {
        if (!probe.ok) k.log.warn(`Sandbox ${policy.mode}: ${probe.reason}. Commands the model starts are refused until then.`);
      });
    });
    k.hooks.shutdown.tapPromise({ name: k.name, order: "post" }, () => launcher.close());
    k.log.info(`Sandbox: ${describePolicy(policy)}`);
  },
});

/** Escalation asks through the extension UI's dialogs and records the answer in the session. */
function escalationDeps(k: PluginContext, approval: "never" | "on-request"): EscalationDeps {
  const dialogs = () => k.maybeService("dialogs");
  return {
    approval,
    get confirm() {
      const service = dialogs();
      return service?.available ? (title: string, message: string, signal?: AbortSignal) => service.confirm(title, message, signal ? { signal } : {}) : undefined;
    },
    record: (entry) => {
      k.maybeService("session")?.append({ type: "custom", customType: ESCALATION_ENTRY, data: entry });
    },
  };
}
