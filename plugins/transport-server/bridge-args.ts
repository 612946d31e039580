/**
 * The command line of `atomic --mode rpc --connect URL`: which agent (open one, `--agent` to
 * attach, `--resume` a stored session), where, with which model and sandbox (what `agent_open`
 * takes), and what the end of input does. Everything else is the server's business: its agents
 * run with the options it was started with, so another option here is a usage error saying so
 * (pi's terminal-UI options are ignored, as `--mode rpc` ignores them).
 */
import { HANDLE_PATTERN } from "./handles.js";

export interface BridgeOptions {
  connect: string;
  agent?: string;
  resume?: string;
  cwd?: string;
  provider?: string;
  model?: string;
  thinkingLevel?: string;
  noSession?: boolean;
  name?: string;
  sandbox?: string;
  closeOnExit: boolean;
  /** pi's terminal-UI options given (ignored, one stderr line). */
  ignored: string[];
  help: boolean;
}

export class BridgeUsageError extends Error {}

const VALUED: Record<string, keyof BridgeOptions> = {
  "--connect": "connect",
  "--agent": "agent",
  "--resume": "resume",
  "--session": "resume",
  "--cwd": "cwd",
  "--provider": "provider",
  "--model": "model",
  "--thinking": "thinkingLevel",
  "--name": "name",
  "-n": "name",
  "--sandbox": "sandbox",
};
/** The new agent's options, as given: each is refused with --agent. */
const OPENING = [
  ["--resume", "resume"],
  ["--no-session", "noSession"],
  ["--cwd", "cwd"],
  ["--provider", "provider"],
  ["--model", "model"],
  ["--thinking", "thinkingLevel"],
  ["--name", "name"],
  ["--sandbox", "sandbox"],
] as const;
const IGNORED_VALUED = new Set(["--theme", "--use-theme", "--tui-mode"]);
const IGNORED = new Set(["--no-themes", "--verbose"]);

export function parseBridgeArgs(argv: readonly string[]): BridgeOptions {
  const options: Partial<BridgeOptions> & { ignored: string[]; closeOnExit: boolean; help: boolean } = { ignored: [], closeOnExit: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = () => {
      const given = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (given === undefined || (eq < 0 && given.startsWith("-"))) throw new BridgeUsageError(`Option ${name} needs a value`);
      return given;
    };
    if (name === "--mode") {
      const mode = value();
      if (mode !== "rpc") throw new BridgeUsageError(`--connect works with --mode rpc (got --mode ${mode})`);
    } else if (name === "--close-on-exit") options.closeOnExit = true;
    else if (name === "--no-session") options.noSession = true;
    else if (name === "--help" || name === "-h") options.help = true;
    else if (IGNORED.has(name)) options.ignored.push(name);
    else if (IGNORED_VALUED.has(name)) {
      value();
      options.ignored.push(name);
    } else if (VALUED[name]) (options as Record<string, unknown>)[VALUED[name]!] = value();
    else if (name.startsWith("-"))
      throw new BridgeUsageError(`${name} is not available with --connect: the server's agents run with the options \`atomic serve\` was started with`);
    else throw new BridgeUsageError(`Unexpected argument "${arg}": --mode rpc takes its input on stdin`);
  }
  if (!options.connect) throw new BridgeUsageError("--connect needs a URL (unix:PATH)");
  if (options.agent !== undefined && !HANDLE_PATTERN.test(options.agent))
    throw new BridgeUsageError(`Invalid --agent "${options.agent}": a handle is "a_" and 10 characters a-z or 2-7, as agent_list shows (e.g. a_k3v9q2m7xw)`);
  if (options.agent !== undefined) {
    // An open agent already has its folder, session, model and sandbox: these are for one the bridge opens.
    const opening = OPENING.filter(([, key]) => options[key] !== undefined).map(([flag]) => flag);
    if (opening.length > 0) throw new BridgeUsageError(`--agent attaches to an open agent: it cannot be given with ${opening.join(", ")}`);
  }
  if (options.resume !== undefined && options.noSession) throw new BridgeUsageError("--resume and --no-session cannot be given together");
  return options as BridgeOptions;
}

export const BRIDGE_HELP = `Usage: atomic --mode rpc --connect unix:PATH [options]

Speaks --mode rpc on stdin/stdout through a running \`atomic serve\`: one of its agents, every
command and event as a --mode rpc process would write it.

  --connect unix:PATH     the server's socket (unix: alone: <agent dir>/serve/serve.sock)
  --agent <handle>        attach to this open agent (a_ and 10 characters, as agent_list shows)
                          instead of opening one
  --resume <id|file>      open this stored session (also --session)
  --cwd <dir>             the new agent's working folder (default: this one)
  --provider, --model, --thinking, --no-session, --name   for the new agent
  --sandbox <mode>        the new agent's sandbox: off, read-only, workspace-write (default: the server's)
  --close-on-exit         end of input closes the agent (default: the agent stays, detached)

The end of input detaches once every command sent has its answer. SIGTERM or SIGINT does not
wait: it detaches at once (or closes the agent, with --close-on-exit) and exits 143 or 130.
Other options are the server's: its agents run with the options \`atomic serve\` was started with.
`;
