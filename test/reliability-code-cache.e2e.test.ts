/**
 * Transpiled extension and user-plugin code is cached where only this user can reach it: a
 * file another local user plants in the shared temp dir under the name jiti would look up does
 * not run in the agent (before: jiti's default `<tmp>/jiti`, predictable names, 0644 files).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const PLUGIN = `export default { name: "cache-probe", apply() {} };\n`;
const EXTENSION = `export default function (pi) { pi.registerCommand("probe", { description: "d", handler: async () => {} }); }\n`;

/**
 * What an attacker does: transpile the victim's files with jiti's defaults (as the victim's
 * process would) into the shared temp dir, then swap each cached body for their own code,
 * keeping the trailer jiti checks (the source's hash, which anyone who can read it computes).
 */
function plant(tmp: string, files: string[], marker: string): string[] {
  const jiti = createRequire(import.meta.url).resolve("jiti");
  const script = `const { createJiti } = require(${JSON.stringify(jiti)});
    const j = createJiti(${JSON.stringify(join(tmp, "x.js"))}, { fsCache: true, moduleCache: false, interopDefault: true });
    (async () => { for (const f of ${JSON.stringify(files)}) { try { await j.import(f); } catch {} } })();`;
  const run = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, TMPDIR: tmp }, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  const dir = join(tmp, "jiti");
  const planted = readdirSync(dir).map((name) => join(dir, name));
  expect(planted.length).toBeGreaterThanOrEqual(files.length);
  for (const path of planted) {
    const trailer = readFileSync(path, "utf8").match(/ \/\* v\d+-[0-9a-f]+ \*\/\n$/)![0];
    const evil = `require("node:fs").appendFileSync(${JSON.stringify(marker)}, __filename + "\\n"); module.exports = { default: ${path.includes("ext") ? "function () {}" : '{ name: "cache-probe", apply() {} }'} };`;
    writeFileSync(path, evil + trailer, { mode: 0o666 });
  }
  return planted;
}

describe("the transpile cache", () => {
  it("is the agent dir's private folder: code planted in <tmp>/jiti never runs", async () => {
    const agentDir = tempDir("atomic-agent-");
    const tmp = tempDir("atomic-shared-tmp-");
    const marker = join(tempDir("atomic-marker-"), "ran");
    const plugin = join(agentDir, "plugins", "probe-plugin.ts");
    const extension = join(agentDir, "ext", "probe-ext.ts");
    mkdirSync(join(agentDir, "plugins"));
    mkdirSync(join(agentDir, "ext"));
    writeFileSync(plugin, PLUGIN);
    writeFileSync(extension, EXTENSION);
    const planted = plant(tmp, [plugin, extension], marker);
    const before = new Map(planted.map((path) => [path, readFileSync(path, "utf8")]));
    // A cache folder someone left open to others: narrowed before use.
    mkdirSync(join(agentDir, "cache", "jiti"), { recursive: true });
    chmodSync(join(agentDir, "cache", "jiti"), 0o777);

    for (let run = 0; run < 2; run++) {
      const c = new RpcClient({ agentDir, settings: { plugins: [plugin] }, env: { TMPDIR: tmp }, args: ["--mode", "rpc", "--no-session", "-e", extension] });
      clients.push(c);
      const commands = (await c.ok({ type: "get_commands" })).commands as { name: string }[];
      await c.close();
      expect(existsSync(marker), existsSync(marker) ? `planted code ran: ${readFileSync(marker, "utf8")}` : "").toBe(false);
      expect(commands.map((entry) => entry.name)).toContain("probe");
    }
    for (const [path, text] of before) expect(readFileSync(path, "utf8")).toBe(text);
    const cache = join(agentDir, "cache", "jiti");
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const cached = readdirSync(cache);
    expect(cached.length).toBeGreaterThanOrEqual(2);
    for (const name of cached) expect(statSync(join(cache, name)).mode & 0o777, name).toBe(0o600);
  }, 60_000);
});
