/**
 * `atomic logout <provider>` (also `atomic auth logout`): removes the provider's auth.json entry,
 * a login or an API key, and says which of the two it was. A name that is neither a provider nor
 * an entry of the file is a usage error naming what there is, so a slip is not taken for "nothing
 * stored".
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { providerMeant } from "../../lib/closest/models.js";
import type { CliIo } from "../../lib/cli-io/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";
import { readCatalog } from "../../lib/model-catalog/index.js";
import { readAuthFile } from "../../lib/oauth/index.js";
import { LOGIN_PROVIDERS } from "./flows.js";

const LOGOUT_USAGE = "Usage: atomic logout <provider>   (removes the provider's stored login or API key from auth.json)\n";
const UNCHANGED = "Environment variables and models.json are unchanged.";

export async function runLogoutCommand(argv: string[], io: CliIo): Promise<number> {
  const [provider, ...rest] = argv;
  if (provider === "--help" || provider === "-h") {
    io.stdout.write(LOGOUT_USAGE);
    return 0;
  }
  if (provider === undefined || provider.startsWith("-") || rest.length > 0) {
    io.stderr.write(`atomic logout takes one provider name.\n${LOGOUT_USAGE}`);
    return 2;
  }
  const authPath = join(io.agentDir, "auth.json");
  // Checked before the file is locked and rewritten: a name nothing knows changes nothing.
  const stored = await readAuthFile(authPath).then(Object.keys, () => undefined);
  if (stored && !stored.includes(provider)) {
    const known = await knownProviders(io.agentDir);
    if (!known.includes(provider)) {
      io.stderr.write(`${unknownName(provider, known, stored, authPath)}\n`);
      return 2;
    }
  }
  let removed: unknown;
  try {
    await updateJsonFile(
      authPath,
      (current) => {
        removed = current[provider];
        delete current[provider];
      },
      { mode: 0o600, dirMode: 0o700 },
    );
  } catch (error) {
    io.stderr.write(`Logout failed: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`${removedMessage(provider, removed)}\n`);
  return 0;
}

/** What was removed, by its kind: a login is named as `atomic login` names it, a key by its provider. */
function removedMessage(provider: string, removed: unknown): string {
  const loginName = LOGIN_PROVIDERS.find((entry) => entry.provider === provider)?.name ?? provider;
  if (removed === undefined) return `No stored credentials for ${loginName}. ${UNCHANGED}`;
  const kind = (removed as { type?: unknown } | null)?.type;
  if (kind === "oauth") return `Logged out of ${loginName}.`;
  if (kind === "api_key") return `Removed the stored API key for ${provider}. ${UNCHANGED}`;
  return `Removed the stored credential for ${provider} (an auth.json entry of type ${JSON.stringify(kind ?? null)}). ${UNCHANGED}`;
}

function unknownName(provider: string, known: string[], stored: string[], authPath: string): string {
  const logins = LOGIN_PROVIDERS.map((entry) => entry.provider);
  const entries = stored.length > 0 ? `its entries: ${stored.join(", ")}` : "it has no entries";
  return (
    `No provider named "${provider}", and ${authPath} has no entry for it (${entries}).${providerMeant([...known, ...stored], provider)}` +
    ` Providers with a login (atomic login lists them): ${logins.join(", ")}.`
  );
}

/** Every name a stored credential could be for: the logins, the built-in providers, models.json's own. */
async function knownProviders(agentDir: string): Promise<string[]> {
  const builtin = (await readCatalog()).providers.map((entry) => entry.provider);
  return [...new Set([...LOGIN_PROVIDERS.map((entry) => entry.provider), ...builtin, ...(await modelsJsonProviders(agentDir))])];
}

/** models.json's provider names; none when it is missing or unreadable (the agent reports that file's problems). */
async function modelsJsonProviders(agentDir: string): Promise<string[]> {
  try {
    const providers = (parseJsonc(await readFile(join(agentDir, "models.json"), "utf8")) as { providers?: unknown } | null)?.providers;
    return typeof providers === "object" && providers !== null && !Array.isArray(providers) ? Object.keys(providers) : [];
  } catch {
    return [];
  }
}
