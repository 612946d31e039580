/**
 * Plugin `bash`: shell commands, for the model (the `bash` tool) and for the user (the `bash`
 * and `abort_bash` commands). Both share one shell, found once, the `shellCommandPrefix` setting
 * and the full-output files, which are removed at exit unless a session file refers to them and
 * otherwise swept after `bash.logRetentionHours`. Teardown cancels and drains user commands.
 */
import { tmpdir } from "node:os";
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import type {} from "../sandbox/api.js";
import { bashHookDeclarations } from "./hooks.js";
import { DEFAULT_LOG_RETENTION_HOURS, FullOutputFiles, sweepDue, sweepOldOutputFiles } from "./output-files.js";
import { BashRequests } from "./requests.js";
import { sharedShell, shellPathProblem } from "./shell.js";
import { openResultStore } from "./store-result.js";
import { createBashTool, DEFAULT_TOOL_TIMEOUT_SECONDS } from "./tool.js";
import { userBashCommands, BashExecutionUpdateSchema } from "./user-bash.js";

export { createBashTool, type BashToolOptions } from "./tool.js";
export type { BashCommandResult } from "./user-bash.js";

const SWEEP_DELAY_MS = 1_000;

const bashSetting = defineSetting(
  () =>
    z.object({
      toolTimeoutSeconds: z.number().positive().optional(),
      logRetentionHours: z.number().positive().optional(),
    }),
  {
    scope: "any",
    description: `The bash tool's default timeout (toolTimeoutSeconds, ${DEFAULT_TOOL_TIMEOUT_SECONDS}) and how long full-output files are kept (logRetentionHours, ${DEFAULT_LOG_RETENTION_HOURS}).`,
  },
);

declare module "../../kernel/config.js" {
  interface Settings {
    shellPath?: string;
    shellCommandPrefix?: string;
    bash?: z.output<ReturnType<(typeof bashSetting)["schema"]>>;
  }
}

export default definePlugin({
  name: "bash",
  description: "Shell commands: the bash tool for the model, the bash and abort_bash commands for the user.",
  // The bash tool's parameters depend on the sandbox's policy (escalation): read once it is provided.
  after: ["sandbox"],
  settings: {
    // Both choose what runs for every command: a cloned project may set them only when trusted.
    shellPath: defineSetting(() => z.string().min(1), { scope: "trusted", description: "Shell binary for bash commands (default: bash, else sh)." }),
    shellCommandPrefix: defineSetting(() => z.string(), { scope: "trusted", description: "Text prepended to every shell command (e.g. `set -euo pipefail;`)." }),
    bash: bashSetting,
  },
  hooks: bashHookDeclarations,
  apply(k) {
    const { settings, env, cwd } = k.config;
    const shell = sharedShell({ shellPath: settings.shellPath, env, platform: process.platform });
    // A shell that cannot run is said at startup (and by `atomic config`), not at the first command.
    const { shellPath } = settings;
    if (shellPath) {
      k.hooks.boot_configure.tapPromise(k.name, async () => {
        const problem = await shellPathProblem(shellPath);
        if (problem) k.log.warn(problem);
      });
    }
    const files = new FullOutputFiles();
    const requests = new BashRequests();
    const track = (path: string) => files.track(path);

    // The model's commands go through the sandbox; the user's own (the bash command) run with the user's rights.
    const sandbox = k.maybeService("sandbox");
    k.registerTool(
      createBashTool({
        shell,
        commandPrefix: settings.shellCommandPrefix,
        defaultTimeoutSeconds: settings.bash?.toolTimeoutSeconds,
        onFullOutput: track,
        ...(sandbox ? { sandbox } : {}),
      }),
    );
    const commands = userBashCommands({
      hooks: k.ownHooks(bashHookDeclarations),
      events: k.events,
      cwd,
      shell,
      commandPrefix: settings.shellCommandPrefix,
      requests,
      onFullOutput: track,
      openStore: () => openResultStore(k, files),
    });
    for (const command of commands) k.registerCommand(command);
    k.registerEvent("bash_execution_update", BashExecutionUpdateSchema);

    // Results stored through the agent reach sessions via message_end: keep the files they name.
    k.hooks.message_end.tap({ name: k.name, order: "post" }, (event) => {
      files.noteStored(event.message, () => k.maybeService("session")?.sessionFile() !== undefined);
      return event;
    });
    // Older files left by earlier processes: swept in the background a moment after startup, so
    // listing a busy temp folder (thousands of names) does not compete with the first commands;
    // once for the agents of a process (siblings), again only after a retention period.
    const sweeps = k.shared.acquire("bash.output-sweep", () => ({ lastMs: Number.NEGATIVE_INFINITY })).value;
    k.hooks.boot_start.tap(k.name, () => {
      const retentionHours = settings.bash?.logRetentionHours ?? DEFAULT_LOG_RETENTION_HOURS;
      if (!sweepDue(sweeps, retentionHours)) return;
      const sweep = () => void sweepOldOutputFiles(tmpdir(), retentionHours).catch(() => undefined);
      setTimeout(sweep, SWEEP_DELAY_MS).unref();
    });
    // Cancelled first; their results are stored once the agent's abort stopped the run (a result
    // that arrives while a run streams waits for its end: draining first left the run going to
    // its natural end, or to the teardown timeout), and before the session (applied after this
    // plugin) closes its file.
    k.hooks.shutdown.tapPromise({ name: k.name, order: "pre" }, async () => requests.cancelAll());
    k.hooks.shutdown.tapPromise({ name: k.name, after: "agent" }, () => requests.drain());
    // After everything else stored what it had: files no session file refers to go.
    k.hooks.shutdown.tapPromise({ name: k.name, order: "post" }, () => files.removeUnkept());
  },
});
