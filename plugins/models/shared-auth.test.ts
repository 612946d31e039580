/**
 * Sibling agents of one host share the credential store: a key one of them stores or removes is
 * what the others use at once (before, each kept the auth.json it read at boot). Another host
 * keeps its own store, read from disk.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost, type HostRuntime } from "../../host/index.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function boot(agentDir: string): Promise<HostRuntime> {
  const host = await createHost({
    cwd: agentDir,
    agentDir,
    env: {},
    plugins: BUILTIN_PLUGINS,
    cli: { noSession: true },
    readSettingsFiles: false,
    userPlugins: false,
    installDir: resolve(import.meta.dirname, "../.."),
    log: { info() {}, warn() {}, error() {} },
  });
  cleanups.push(() => host.shutdown("exit"));
  return host;
}

const status = (agent: HostRuntime, provider: string) => agent.kernel.services.get("models").authStatus(provider);

describe("credentials shared by sibling agents", () => {
  it("a key one agent removes or stores is what its siblings use; another host reads the file", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "atomic-shared-auth-"));
    cleanups.push(() => rmSync(agentDir, { recursive: true, force: true }));
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ openai: { type: "api_key", key: "sk-o" } }), { mode: 0o600 });
    const host = await boot(agentDir);
    const sibling = await host.openSibling({ cwd: agentDir });
    cleanups.push(() => sibling.shutdown("exit"));
    expect(status(sibling, "openai")).toMatchObject({ configured: true, source: "stored" });

    expect(await host.send({ type: "logout_provider", provider: "openai" })).toMatchObject({ success: true });
    expect(status(sibling, "openai")).toEqual({ configured: false });
    expect(((await sibling.send({ type: "get_available_models" })) as { data: { models: { provider: string }[] } }).data.models.some((m) => m.provider === "openai")).toBe(false);

    await sibling.kernel.services.get("models").storeApiKey("anthropic", "sk-a");
    expect(status(host, "anthropic")).toMatchObject({ configured: true, source: "stored" });
    expect(await host.kernel.services.get("models").apiKey("anthropic")).toBe("sk-a");

    // Another host of the process is not a sibling: it has its own store, read from disk now.
    const other = await boot(agentDir);
    expect(status(other, "anthropic")).toMatchObject({ configured: true });
    await host.kernel.services.get("models").removeStoredKey("anthropic");
    expect(status(other, "anthropic")).toMatchObject({ configured: true });
    // A sibling opened later reads the file again (it changed on disk).
    const later = await other.openSibling({ cwd: agentDir });
    cleanups.push(() => later.shutdown("exit"));
    expect(status(later, "anthropic")).toEqual({ configured: false });
  });
});
