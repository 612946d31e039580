/**
 * Choosing the transport on the command line: `--mode <name>` wins, then `-p`/`--print` (print
 * mode, as pi's), then settings `mode`, then rpc. Settled before boot, so every plugin reads the
 * mode that will serve from `k.config.cli.mode` (extensions decide whether dialogs have a client).
 */
import type { CliOptions } from "../kernel/index.js";
import type {} from "../plugins/transport-print/index.js";

export function applyPrintFlag(cli: CliOptions): void {
  if (!cli.mode && cli.print) cli.mode = "print";
}

/** The --help lines of the built-in modes. */
export const MODE_USAGE = [
  '  atomic -p "prompt" [more prompts]  print the final answer and exit (piped stdin goes before the first prompt)',
  '  atomic --mode json "prompt"        write the session header and every event as JSON lines, then exit',
  "  atomic --mode acp                  serve the Agent Client Protocol on stdin/stdout (editors such as Zed)",
  "  atomic serve [--listen URL]...     many agents, many clients: stdio, unix:PATH, ws://HOST:PORT (atomic serve --help)",
  "  atomic --mode rpc --connect URL    one agent of a running server as plain --mode rpc on stdin/stdout (its --help)",
];
