/**
 * `atomic config`: boots the host the way `--mode rpc` would (same flags, same files), serves
 * nothing, and prints where each setting came from, which models.json and auth.json entries were
 * read, which provider has a credential and from where (never a key), the startup model, and
 * every problem found: mcp.json's too (read here, though no server starts), and models.json's
 * that startup does not look for. Exit 1 when there is a problem. When the flags or the settings
 * files stop startup, the rest is still checked without them, so one report shows every problem.
 */
import { stat } from "node:fs/promises";
import { composeSettings, PI_ONLY_SETTINGS, type HostOptions, type HostRuntime, type PreparedHost } from "../host/index.js";
import { toKernelError, type Logger } from "../kernel/index.js";
import type {} from "../plugins/agent/api.js";
import type {} from "../plugins/mcp/api.js";
import type { ModelsApi } from "../plugins/models/api.js";
import { describePolicy, type SandboxApi } from "../plugins/sandbox/api.js";
import { needsAddressVariables } from "../plugins/models/address-variables.js";
import { credentials, providerAddressGaps } from "./list-models.js";

const WITHOUT_SETTINGS = "the settings files and user plugins";

interface Collected {
  notes: string[];
  problems: string[];
}

export async function configReport(options: HostOptions, prepare: (options: HostOptions) => Promise<PreparedHost>): Promise<{ text: string; problems: number }> {
  const found: Collected = { notes: [], problems: [] };
  // Each message once: a retry below reports the same models.json problem again.
  const add = (list: string[]) => (message: string) => void (list.includes(message) || list.push(message));
  const log: Logger = { info: add(found.notes), warn: add(found.problems), error: add(found.problems) };
  let prepared: PreparedHost | undefined;
  let host: HostRuntime | undefined;
  let skipped: string | undefined;
  // What stopped startup is a problem; then again without it (the flags, then the settings
  // files and user plugins), so the rest is still checked.
  const attempts: [string | undefined, HostOptions][] = [[undefined, options]];
  if ((options.argv ?? []).length > 0) attempts.push(["the command-line options", { ...options, argv: [] }]);
  attempts.push([WITHOUT_SETTINGS, { ...options, argv: [], readSettingsFiles: false, userPlugins: false }]);
  for (const [without, attempt] of attempts) {
    try {
      prepared = await prepare({ ...attempt, log });
      host = await prepared.boot();
      // A report starts no MCP server (`atomic mcp test` connects them).
      host.kernel.services.maybe("mcp")?.hold();
      // The mode is chosen once boot is over: a mode setting naming no transport stops startup there.
      modeProblem(host, log);
      skipped = without;
      break;
    } catch (error) {
      // Every invalid setting is a line of its own.
      for (const problem of toKernelError(error).message.split("\n")) log.error(problem);
      prepared = undefined;
    }
  }
  try {
    const text = await render(options, prepared, host, found, skipped);
    return { text, problems: found.problems.length };
  } finally {
    await host?.shutdown("exit");
  }
}

async function render(options: HostOptions, prepared: PreparedHost | undefined, host: HostRuntime | undefined, found: Collected, skipped: string | undefined): Promise<string> {
  const out: string[] = [];
  const line = (text = "") => out.push(text);
  line(`Agent dir:      ${options.agentDir}`);
  line(`Working folder: ${options.cwd}${host ? ` (project ${host.config.trusted ? "trusted" : "not trusted"})` : ""}`);
  if (skipped) line(`Checked without ${skipped}: they stop startup (see Problems).`);
  const sources = host?.config.settingsSources;
  if (sources) {
    line();
    line(skipped === WITHOUT_SETTINGS ? "Settings files (not read: see Problems)" : "Settings files");
    line(`  user     ${sources.userFile} (${(await isFile(sources.userFile)) ? "read" : "not found"})`);
    line(`  project  ${sources.projectFile} (${(await isFile(sources.projectFile)) ? "read" : "not found"})`);
  }
  if (prepared && sources) {
    const composed = composeSettings(prepared.definitions);
    const rows = [...composed.values()].map((setting) => [setting.key, sources.sources[setting.key] ?? "default", setting.owner]);
    line();
    line("Settings (key, where its value comes from, owner)");
    out.push(...table(rows, "  "));
    const unknown = Object.keys(sources.sources).filter((key) => !composed.has(key));
    const pis = unknown.filter((key) => PI_ONLY_SETTINGS.has(key));
    const others = unknown.filter((key) => !PI_ONLY_SETTINGS.has(key));
    if (pis.length > 0) line(`  Read by pi, not by Atomic (kept, ignored): ${pis.join(", ")}`);
    if (others.length > 0) line(`  Not read by any plugin (kept, ignored; see Problems): ${others.join(", ")}`);
  }
  const sandbox = host?.kernel.services.maybe("sandbox") as SandboxApi | undefined;
  if (sandbox) {
    const state = await sandbox.check();
    line();
    line("Sandbox (the model's commands and file tools)");
    line(
      `  ${describePolicy(state)}${state.mode === "off" ? "; the default: --sandbox workspace-write or the sandbox setting turns it on (docs/sandbox.md)" : `, enforced by ${state.enforcement}`}`,
    );
    if (state.unavailable) found.problems.push(`Sandbox ${state.mode}: ${state.unavailable}`);
  }
  const models = host?.kernel.services.maybe("models") as ModelsApi | undefined;
  if (host && models) {
    const { modelsJson, authFile } = models.diagnostics();
    line();
    line("Models");
    const jsonState =
      modelsJson.state === "loaded"
        ? `read; providers: ${modelsJson.providers.join(", ") || "none"}${modelsJson.problems ? `; ${skippedEntries(modelsJson.problems.length)} (see Problems)` : ""}`
        : modelsJson.state === "missing"
          ? "not found"
          : "invalid, ignored: every provider refuses requests (see Problems)";
    line(`  models.json  ${modelsJson.path} (${jsonState})`);
    // What startup does not check: an api no provider serves (listed by the agent's stream hooks), a slip of a key.
    if (host.kernel.services.maybe("agent")) found.problems.push(...(await models.checkConfig(host.kernel.hook("stream").apis())));
    line(`  auth.json    ${authFile.path} (${authFile.error ? "unreadable, see Problems" : `entries: ${authFile.providers.join(", ") || "none"}`})`);
    const exposed = await exposedFile(authFile.path);
    if (exposed) found.problems.push(`${authFile.path} holds credentials and is ${exposed}: chmod 600 ${authFile.path}`);
    const agent = host.kernel.services.maybe("agent");
    const model = agent?.getModel();
    line(`  startup model  ${model ? `${model.provider}/${model.id} (thinking ${agent!.getThinkingLevel()})` : "none"}`);
    line();
    line("Credentials (provider, where its key comes from; keys are never shown)");
    const rows = models.providers().map((provider) => {
      const status = models.authStatus(provider);
      const gaps = providerAddressGaps(models, provider);
      // A key with no address to send it to: its models are not offered. A note, not a problem: the
      // key may be set for other tools, and nothing fails at startup unless the default model is
      // one of them (then the startup warning above is the problem).
      if (status.configured && status.source !== "none" && gaps.length > 0)
        found.notes.push(`${needsAddressVariables(provider, gaps)} Its models are unavailable until then (its key is set: ${credentials(status)}).`);
      return [provider, credentials(status, models.providerInfo(provider)?.envKey, models.providerInfo(provider)?.login, gaps), count(models.modelsOf(provider).length, "model")];
    });
    out.push(...table(rows, "  "));
  }
  // mcp.json is read when the servers start, which a report never does: read now, started not.
  const mcp = host?.kernel.services.maybe("mcp");
  if (mcp) {
    const checked = await mcp.checkConfig();
    found.problems.push(...checked.problems);
    found.notes.push(...checked.notes);
  }
  if (found.notes.length > 0) {
    line();
    line("Notes");
    for (const note of found.notes) line(`  - ${note}`);
  }
  line();
  if (found.problems.length === 0) line("Problems: none");
  else {
    line(`Problems (${found.problems.length})`);
    for (const problem of found.problems) line(`  - ${problem}`);
  }
  return out.join("\n") + "\n";
}

function modeProblem(host: HostRuntime, log: Logger): void {
  try {
    host.transport(host.defaultMode());
  } catch (error) {
    log.error((error as Error).message);
  }
}

function table(rows: string[][], indent: string): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => indent + row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  "));
}

/** How a file is open to others than its owner (`readable by group and others (mode 0644)`), or undefined. */
async function exposedFile(path: string): Promise<string | undefined> {
  if (process.platform === "win32") return undefined;
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
  if (mode === undefined || (mode & 0o077) === 0) return undefined;
  const who = [mode & 0o070 ? "group" : "", mode & 0o007 ? "others" : ""].filter(Boolean).join(" and ");
  const how = mode & 0o044 ? "readable" : "writable";
  return `${how} by ${who} (mode ${mode.toString(8).padStart(4, "0")})`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function skippedEntries(count: number): string {
  return count === 1 ? "1 entry skipped" : `${count} entries skipped`;
}
