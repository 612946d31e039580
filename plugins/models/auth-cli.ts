/**
 * `atomic auth set|clear|list`: manage stored API keys in `<agent dir>/auth.json` (mode 0600).
 * The key is read from stdin, never from argv, so it stays out of shell history and `ps`. A
 * provider name Atomic does not know (built-in, models.json, already stored) is refused unless
 * `--force`: a typo would otherwise store a key nothing reads.
 */
import { providerMeant } from "./closest.js";
import { AuthStore } from "./auth-store.js";
import { describeConfigValue } from "./config-value.js";
import { modelsJsonPath, readModelsJson, type ProviderConfig } from "./models-json.js";
import { readCatalog } from "../../lib/model-catalog/index.js";
import type { CliIo } from "../../lib/cli-io/index.js";

export type AuthCliIo = Pick<CliIo, "agentDir" | "stdin" | "stdout" | "stderr"> & Partial<Pick<CliIo, "env">>;

const USAGE = `Usage:
  atomic auth set <provider> [--force]   read an API key from stdin and store it in auth.json
                                         (--force: a provider only a plugin of yours registers)
  atomic auth clear <provider>           remove the stored key
  atomic auth list                       show which providers have credentials, and from where
`;

const PROVIDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Runs the subcommand (`argv` after `atomic`, with or without the leading `auth`); resolves to the exit code. */
export async function runAuthCommand(argv: string[], io: AuthCliIo): Promise<number> {
  const args = argv[0] === "auth" ? argv.slice(1) : argv;
  const force = args.includes("--force");
  const [action, provider, ...extra] = args.filter((arg) => arg !== "--force");
  const store = new AuthStore(io.agentDir);
  const fail = (message: string, showUsage = false) => {
    io.stderr.write(`${message}\n${showUsage ? USAGE : ""}`);
    return showUsage ? 2 : 1;
  };
  // Asked for, the usage is the output (stdout, exit 0); without a command it explains a usage error (stderr, exit 2), as `atomic mcp` does.
  if (action === "help" || action === "--help" || action === "-h") {
    io.stdout.write(USAGE);
    return 0;
  }
  if (action === undefined) {
    io.stderr.write(USAGE);
    return 2;
  }
  if (action === "list" && provider === undefined) {
    await store.load((message) => io.stderr.write(`${message}\n`));
    const modelsJson = await modelsJsonProviders(io);
    io.stdout.write(listing(store, modelsJson, await builtinKeys(), io.env ?? process.env));
    return 0;
  }
  if (action === "set" || action === "clear") {
    if (provider === undefined) {
      await store.load().catch(() => undefined);
      const known = await knownProviders(store, io);
      return fail(`atomic auth ${action} needs a provider name, for example: atomic auth ${action} ${known[0] ?? "anthropic"}. Known providers: ${known.join(", ")}.`, true);
    }
    if (extra.length > 0)
      return fail(action === "set" ? "The key is read from stdin, not from the command line." : `atomic auth clear takes one provider name, not ${1 + extra.length}.`, true);
  } else if (action !== "list") {
    return fail(`Unknown auth command: ${action}. The commands are set, clear and list.`, true);
  } else {
    return fail("atomic auth list takes no provider: it lists them all.", true);
  }
  if (!PROVIDER_NAME.test(provider)) return fail(`Invalid provider name: ${provider}`);

  try {
    if (action === "clear") {
      const removed = await store.remove(provider);
      if (removed) io.stdout.write(`Removed the stored key for ${provider}.\n`);
      else {
        // Nothing to remove is no failure (clearing twice is fine), but a slip of a name would look like one that worked.
        const known = await knownProviders(store, io);
        io.stdout.write(`No stored key for ${provider}.${known.includes(provider) ? "" : providerMeant(known, provider)}\n`);
      }
      return 0;
    }
    if (!force) {
      await store.load();
      const known = await knownProviders(store, io);
      if (!known.includes(provider)) {
        io.stderr.write(
          `Unknown provider "${provider}".${providerMeant(known, provider)} Known providers: ${known.join(", ")}. For a provider a plugin of yours registers, pass --force.\n`,
        );
        return 2;
      }
    }
    if ((io.stdin as { isTTY?: boolean }).isTTY) io.stderr.write(`Paste the API key for ${provider}, then press Enter and Ctrl-D:\n`);
    const key = firstLine(await readAll(io.stdin));
    if (!key) return fail(`No key on stdin. Example: printf '%s' "$KEY" | atomic auth set ${provider}`);
    await store.set(provider, key);
    io.stdout.write(`Stored the key for ${provider} in ${store.path}.\n`);
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** Every provider name a key can be stored for: built-in, models.json's, already stored (the store loaded). */
async function knownProviders(store: AuthStore, io: AuthCliIo): Promise<string[]> {
  return [...new Set([...Object.keys(await builtinKeys()), ...Object.keys(await modelsJsonProviders(io)), ...store.providers()])];
}

/** models.json's providers; a file that fails validation is reported on stderr and lists none. */
async function modelsJsonProviders(io: AuthCliIo): Promise<Record<string, ProviderConfig>> {
  const result = await readModelsJson(modelsJsonPath(io.agentDir));
  if (result.error) io.stderr.write(`${result.error} (models.json ignored)\n`);
  for (const problem of result.problems) io.stderr.write(`${problem}\n`);
  return result.file?.providers ?? {};
}

/** The built-in providers (the catalog's) and the environment variable each reads its key from. */
async function builtinKeys(): Promise<Record<string, string | undefined>> {
  const catalog = await readCatalog();
  return Object.fromEntries(catalog.providers.map((provider) => [provider.provider, provider.envKey]));
}

/** Each provider's key sources in lookup order (the first one is used); never a key. */
function listing(store: AuthStore, modelsJson: Record<string, ProviderConfig>, envKeys: Record<string, string | undefined>, env: NodeJS.ProcessEnv): string {
  const lines: string[] = [];
  const providers = new Set([...Object.keys(envKeys), ...store.providers(), ...Object.keys(modelsJson)]);
  for (const provider of providers) {
    const sources: string[] = [];
    if (store.has(provider)) sources.push(store.isLogin(provider) ? "auth.json (login: atomic login)" : "auth.json");
    const variable = envKeys[provider];
    if (variable && env[variable]) sources.push(`environment (${variable})`);
    const configured = modelsJson[provider]?.apiKey;
    if (configured) sources.push(`models.json (${describeModelsJsonKey(configured, env)})`);
    lines.push(`${provider}: ${sources.length > 0 ? sources.join(", ") : "not configured"}`);
  }
  lines.push("", "Lookup order: auth.json, then the environment, then models.json; the first source listed is used.");
  return lines.join("\n") + "\n";
}

function describeModelsJsonKey(value: string, env: NodeJS.ProcessEnv): string {
  const described = describeConfigValue(value, { env });
  if (described.kind === "command") return "a command";
  if (described.kind === "env") return `environment variable ${described.envName}${described.resolvable ? "" : ", not set"}`;
  return "a literal key";
}

function firstLine(text: string): string {
  return (text.split(/\r?\n/).find((line) => line.trim() !== "") ?? "").trim();
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer | string) => chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
    stream.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.once("error", reject);
  });
}
