/**
 * The `atomic` executable's boot: subcommands (`login`, `logout`, `auth`, `mcp`, `config`, `schema`, the package
 * commands, only as the first argument), then the host (settings, plugins, flags), then serving with the chosen transport, or
 * printing the model list or the protocol schema. Signals ask the host for teardown. Anything that
 * goes wrong before serving is one clear line on stderr: exit 2 for a usage mistake, 1 otherwise.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { claimStdout, type ClaimedStdout } from "../lib/stdout/index.js";
import { handleStrayErrors, type StrayErrorKind } from "../lib/stray-errors/index.js";
import { ErrorCode, isKernelError, resolveAgentDir, toKernelError, UsageError } from "../kernel/index.js";
import { packageAliases, prepareHost, protocolSchema, type HostOptions, type PreparedHost } from "../host/index.js";
import type {} from "../plugins/models/api.js";
import { BUILTIN_MODULES, BUILTIN_PLUGINS } from "./builtins.js";
import { applyPrintFlag } from "./mode.js";
import { CONFIG_HELP, helpText, SCHEMA_HELP } from "./help.js";
import { configReport } from "./config.js";
import { modelListing, noListingMatches } from "./list-models.js";
import { piOnlyFlagMessage } from "./pi-flags.js";
import { promptArgumentsMessage, terminalNote } from "./hints.js";
import type { CliEntry } from "../lib/cli-io/index.js";

// This file runs from dist/cli/ (compiled; the bundler re-points these URLs from wherever it puts
// this code): the package root is two levels up.
const INSTALL_DIR = `${dirname(fileURLToPath(new URL("../../package.json", import.meta.url)))}/`;
// Resolved at run time: the CLI never imports a plugin's internals statically. Functions, so
// a start that runs no subcommand builds none of these URLs.
const AUTH_CLI = () => new URL("../plugins/models/auth-cli.js", import.meta.url).href;
const LOGIN_CLI = () => new URL("../plugins/login/cli.js", import.meta.url).href;
const MCP_CLI = () => new URL("../plugins/mcp/cli.js", import.meta.url).href;
const MODELS_CLI = () => new URL("../plugins/provider-catalog/update-cli.js", import.meta.url).href;
const PACKAGES_CLI = () => new URL("../plugins/packages/cli.js", import.meta.url).href;
const BRIDGE_CLI = () => new URL("../plugins/transport-server/bridge.js", import.meta.url).href;
const SERVE_HELP = () => new URL("../plugins/transport-server/serve-help.js", import.meta.url).href;
/** pi's package commands (plugins/packages/cli.ts). */
const PACKAGE_COMMANDS = new Set(["install", "remove", "uninstall", "list", "update"]);
// The package's compiled root (dist/): its index.js is what user code imports as `atomic-agent`.
const PACKAGE_MODULES = () => dirname(fileURLToPath(new URL("../index.js", import.meta.url)));

const SIGNAL_EXIT_CODES = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 } as const;

/** How every entry of this executable builds its host. */
function hostOptions(argv: string[]): HostOptions {
  return {
    cwd: process.cwd(),
    agentDir: resolveAgentDir(process.env),
    env: process.env,
    plugins: BUILTIN_PLUGINS,
    // User plugins outside this package still get this package's modules and the same zod instance.
    loader: { builtins: BUILTIN_MODULES, aliases: () => packageAliases(PACKAGE_MODULES(), dirname(createRequire(import.meta.url).resolve("zod/package.json"))) },
    argv,
    installDir: INSTALL_DIR,
  };
}

export interface MainOptions {
  /** Called when the process starts serving (the launcher then keeps its compiled code). */
  onServe?: () => void;
  /** Called once, a second after the first prompt settled (the process is then likely idle). */
  onSettled?: () => void;
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  // pi spells them `auth login` / `auth logout`.
  if (argv[0] === "login" || (argv[0] === "auth" && argv[1] === "login")) return runSubcommand(LOGIN_CLI(), "runLoginCommand", argv.slice(argv[0] === "auth" ? 2 : 1));
  if (argv[0] === "logout" || (argv[0] === "auth" && argv[1] === "logout")) return runSubcommand(LOGIN_CLI(), "runLogoutCommand", argv.slice(argv[0] === "auth" ? 2 : 1));
  if (argv[0] === "auth") return runSubcommand(AUTH_CLI(), "runAuthCommand", argv.slice(1));
  if (argv[0] === "mcp") return runSubcommand(MCP_CLI(), "runMcpCommand", argv.slice(1));
  if (argv[0] === "models") return runSubcommand(MODELS_CLI(), "runModelsCommand", argv.slice(1));
  if (argv[0] !== undefined && PACKAGE_COMMANDS.has(argv[0])) return runSubcommand(PACKAGES_CLI(), "runPackagesCommand", argv);
  // --mode rpc through a running server: a relay, no agent of its own to boot.
  if (argv.some((arg) => arg === "--connect" || arg.startsWith("--connect="))) return runSubcommand(BRIDGE_CLI(), "runBridge", argv);
  const subcommand = argv[0] === "schema" ? "schema" : undefined;
  if (subcommand) argv = argv.slice(1);
  // `atomic serve [...]` is the transport of that name (settings `mode: "serve"` picks it too).
  if (argv[0] === "serve") argv = ["--mode", "serve", ...argv.slice(1)];
  // Claimed before any user plugin is imported: nothing else can write protocol noise.
  const stdout = claimStdout();
  // This process is the CLI's own: an extension's stray rejection is reported, not fatal.
  handleStrayErrors(fatalStrayError);
  if (argv[0] === "config" && !subcommand) return runConfig(argv.slice(1), stdout);
  let prepared: PreparedHost;
  try {
    prepared = await prepareHost(hostOptions(argv));
  } catch (error) {
    return fail(error);
  }
  applyPrintFlag(prepared.cli);
  if (prepared.cli.help || prepared.cli.version || subcommand || prepared.cli.listModels !== undefined) endQuietlyOnClosedPipe();
  if (prepared.cli.help) {
    // `atomic serve` and `atomic schema` have their own (`--mode serve --help` too).
    const serving = prepared.cli.mode === "serve";
    stdout.write(subcommand === "schema" ? SCHEMA_HELP : serving ? ((await import(SERVE_HELP())) as { serveHelp: () => string }).serveHelp() : helpText(prepared));
    await stdout.flush();
    return 0;
  }
  if (prepared.cli.version) {
    stdout.write(`${await version()}\n`);
    await stdout.flush();
    return 0;
  }
  try {
    const host = await prepared.boot();
    if (subcommand === "schema") {
      // Every registered command and event, user plugins included: the protocol this build speaks.
      stdout.write(`${JSON.stringify(protocolSchema(host.kernel), null, 2)}\n`);
      await host.shutdown("exit");
      await stdout.flush();
      return 0;
    }
    const listModels = host.config.cli.listModels;
    if (listModels !== undefined) {
      const models = host.kernel.services.get("models");
      const { text, count } = modelListing(models, listModels);
      const none = count === 0 && typeof listModels === "string" ? noListingMatches(models, listModels) : undefined;
      await host.shutdown("exit");
      if (count === 0) return fail(new Error(none ?? "No models."));
      stdout.write(text);
      await stdout.flush();
      return 0;
    }
    const mode = host.defaultMode();
    const transport = host.transport(mode);
    const positionals = host.config.cli.positionals;
    if (!transport.acceptsPrompts) {
      if (positionals.length > 0) {
        await host.shutdown("exit");
        return fail(new UsageError(promptArgumentsMessage(mode, positionals)));
      }
      if (process.stdin.isTTY) process.stderr.write(terminalNote(mode, transport));
    }
    let signalCode: number | undefined;
    for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
      // \`on\`, not \`once\`: signal-exit (proper-lockfile's) re-raises a signal it finds no other
      // listener for, which killed the process mid-teardown once a lock had been taken.
      process.on(signal, () => {
        // A second signal while teardown runs: leave now.
        if (signalCode !== undefined) process.exit(signalCode);
        signalCode = code;
        void host.shutdown("signal");
      });
    }
    options.onServe?.();
    const onSettled = options.onSettled;
    if (onSettled) {
      let settled = false;
      host.kernel.hookRegistry.viewFor("cli").agent_settled.tap({ name: "cli", order: "post" }, () => {
        if (settled) return;
        settled = true;
        // A second later: writing the cache blocks the loop for a few milliseconds, which must not
        // delay what the client asks right after the prompt (nor the session file's writes).
        setTimeout(onSettled, 1_000).unref();
      });
    }
    const code = await host.serve(mode);
    return signalCode ?? code;
  } catch (error) {
    return fail(error);
  }
}

/** One line on stderr; a flag nobody declares gets the --help hint, or what to do instead when it is pi's. */
function fail(error: unknown): number {
  const coded = toKernelError(error);
  const usage = isKernelError(error) && coded.code === ErrorCode.USAGE;
  const option = (error as { option?: unknown }).option;
  if (typeof option === "string") {
    process.stderr.write(`atomic: ${piOnlyFlagMessage(option) ?? `${coded.message}. Run 'atomic --help' for the list of options.`}\n`);
    return 2;
  }
  // Several problems at once (every invalid setting) are a line each; indented lines continue the one before.
  process.stderr.write(
    coded.message
      .split("\n")
      .map((line) => (/^\s/.test(line) ? `${line}\n` : `atomic: ${line}\n`))
      .join(""),
  );
  return usage ? 2 : 1;
}

/**
 * Output read by a person or a pipe (help, version, schema, model list, config): a reader that
 * stops early (`atomic schema | head`) ends the process quietly, not with an EPIPE stack trace.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") process.stderr.write(`atomic: cannot write to stdout: ${error.message}\n`);
    process.exit(error.code === "EPIPE" ? 0 : 1);
  });
}

async function runConfig(argv: string[], stdout: ClaimedStdout): Promise<number> {
  endQuietlyOnClosedPipe();
  if (argv.includes("--help") || argv.includes("-h")) {
    stdout.write(CONFIG_HELP);
    await stdout.flush();
    return 0;
  }
  const { text, problems } = await configReport(hostOptions(argv), prepareHost);
  stdout.write(text);
  await stdout.flush();
  return problems > 0 ? 1 : 0;
}

/** Loads a plugin's subcommand module (only when that subcommand runs) and calls its entry point. */
async function runSubcommand(moduleUrl: string, entry: string, argv: string[]): Promise<number> {
  const run = ((await import(moduleUrl)) as Record<string, CliEntry>)[entry]!;
  return run(argv, { agentDir: resolveAgentDir(process.env), cwd: process.cwd(), env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

async function version(): Promise<string> {
  const pkg = JSON.parse(await readFile(`${INSTALL_DIR}package.json`, "utf8")) as { version: string };
  return pkg.version;
}

/** What Node itself does with an error nobody claimed: its stack on stderr, exit code 1. */
function fatalStrayError(error: unknown, kind: StrayErrorKind): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`atomic: ${kind === "unhandled_rejection" ? "unhandled rejection" : "uncaught exception"}: ${text}\n`);
  process.exit(1);
}
