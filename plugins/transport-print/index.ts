/**
 * Plugin `transport-print`: the everyday command-line and CI modes, as pi has them. `atomic -p
 * "prompt"` prints the final answer; `atomic --mode json "prompt"` writes the session header and
 * every event as JSON lines. Positional arguments are the prompts (piped stdin goes before the
 * first); the process exits once the agent has settled. No command logic: prompts go through
 * the host's scheduler like any client's.
 */
import { definePlugin } from "../../kernel/index.js";
import type {} from "../session/api.js";
import type {} from "../agent/api.js";
import { runPrompts, SettledSignal, type OutputMode } from "./run.js";

declare module "../../kernel/config.js" {
  interface CliOptions {
    print?: boolean;
  }
}

const MODES: Record<OutputMode, string> = {
  print: "Send the prompts given as arguments (and piped stdin), print the final answer, exit (also -p).",
  json: "Send the prompts given as arguments, write the session header and every event as JSON lines, exit.",
};

export default definePlugin({
  name: "transport-print",
  description: "Print and JSON modes: prompts from the command line, the answer or the event stream on stdout.",
  flags: [{ name: "--print", alias: "-p", key: "print", description: "Print mode: answer the prompts given as arguments and exit (--mode print)." }],
  apply(k) {
    const settled = new SettledSignal();
    const mode = k.config.cli.mode || k.config.settings.mode;
    // Only a print or JSON process waits for the agent to settle: elsewhere the hook stays untapped (free).
    if (mode === "print" || mode === "json") k.hooks.agent_settled.tap(k.name, () => settled.fire());
    for (const [name, description] of Object.entries(MODES) as [OutputMode, string][]) {
      k.registerTransport({
        name,
        description,
        acceptsPrompts: true,
        serve: (host) => {
          // Session files that could not be written, by file (a later write that works clears it).
          const unwritten = new Map<string, string>();
          k.maybeService("sessionStore")?.onWriteStatus(({ file, error }) => (error === undefined ? unwritten.delete(file) : unwritten.set(file, error)));
          return runPrompts(host, {
            mode: name,
            settled,
            header: () => k.maybeService("session")?.header(),
            busy: () => k.maybeService("agent")?.isStreaming() ?? false,
            modelUrl: () => k.maybeService("agent")?.getModel()?.baseUrl || undefined,
            unsaved: () => [...unwritten.values()][0],
          });
        },
      });
    }
  },
});
