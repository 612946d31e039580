/**
 * Extensions at boot, as real packages need them. No fixed deadline decides what loads (a busy
 * machine makes a first import of a large TypeScript package take tens of seconds): a slow
 * import or factory loads, with progress lines on stderr, where a 5 s factory limit and a 12 s
 * budget for all imports used to skip it; a truly hung one is reported and skipped after the
 * configurable `extensionLoadTimeout`, and never ends the agent. And a flag an extension registers
 * has its command-line value in `session_start` (pi-mcp-adapter reads `--mcp-config` there).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { withoutBuiltins } from "./helpers/commands.js";

const BASE = ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"];
const commandNames = async (client: RpcClient) =>
  withoutBuiltins(((await client.ok({ type: "get_commands" }, 60_000)) as { commands: { name: string }[] }).commands)
    .map((entry) => entry.name)
    .sort();

it("a slow import and a slow factory load, each with a progress line on stderr", async () => {
  const dir = tempDir("atomic-slow-load-");
  // Longer than the old 5 s a factory had.
  writeFileSync(
    join(dir, "slow-factory.ts"),
    `export default async function (pi: any) {
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  pi.registerCommand("slow-factory", { handler: async () => {} });
}
`,
  );
  writeFileSync(
    join(dir, "slow-import.mjs"),
    `await new Promise((resolve) => setTimeout(resolve, 6_000));
export default function (pi) { pi.registerCommand("slow-import", { handler: async () => {} }); }
`,
  );
  const client = new RpcClient({ args: [...BASE, "-e", join(dir, "slow-factory.ts"), "-e", join(dir, "slow-import.mjs")] });
  expect(await commandNames(client)).toEqual(["slow-factory", "slow-import"]);
  expect(client.records.filter((record) => record.type === "extension_error")).toEqual([]);
  expect(client.stderr).toContain(`Still loading extension ${join(dir, "slow-factory.ts")}: running its factory (`);
  expect(client.stderr).toContain(`Still loading extension ${join(dir, "slow-import.mjs")}: importing (`);
  expect(await client.close()).toMatchObject({ code: 0 });
}, 120_000);

it("a hung extension is reported and skipped after extensionLoadTimeout; the others load and the agent answers", async () => {
  const dir = tempDir("atomic-hung-load-");
  writeFileSync(join(dir, "fine.ts"), `export default function (pi: any) { pi.registerCommand("fine", { handler: async () => {} }); }\n`);
  writeFileSync(join(dir, "hangs-importing.mjs"), `await new Promise(() => setInterval(() => {}, 1000));\nexport default function () {}\n`);
  writeFileSync(
    join(dir, "hangs-in-factory.ts"),
    `export default function (pi: any) { pi.registerCommand("never", { handler: async () => {} }); return new Promise(() => {}); }\n`,
  );
  const client = new RpcClient({
    settings: { extensionLoadTimeout: 1.5 },
    args: [...BASE, "-e", join(dir, "hangs-importing.mjs"), "-e", join(dir, "hangs-in-factory.ts"), "-e", join(dir, "fine.ts")],
  });
  expect(await commandNames(client)).toEqual(["fine"]);
  const errors = client.records.filter((record) => record.type === "extension_error");
  expect(errors.map((error) => [error.extensionPath, error.event])).toEqual([
    [join(dir, "hangs-importing.mjs"), "load"],
    [join(dir, "hangs-in-factory.ts"), "load"],
  ]);
  expect(String(errors[0]!.error)).toMatch(/did not finish loading within 1\.5 s \(still importing\); it is skipped\. Raise extensionLoadTimeout/);
  expect(String(errors[1]!.error)).toMatch(/did not finish loading within 1\.5 s \(still running its factory\)/);
  expect(client.child.exitCode).toBeNull();
  client.child.kill("SIGKILL");
  await client.exited;
}, 60_000);

it("a flag an extension registers has its command-line value in session_start", async () => {
  const dir = tempDir("atomic-flag-at-start-");
  writeFileSync(
    join(dir, "flagged.ts"),
    `export default function (pi: any) {
  pi.registerFlag("probe-config", { type: "string", default: "none" });
  let seen = "unset";
  pi.on("session_start", () => { seen = String(pi.getFlag("probe-config")); });
  pi.registerCommand("seen", { handler: async (_a: string, ctx: any) => ctx.ui.notify(seen) });
}
`,
  );
  const client = new RpcClient({ args: [...BASE, "-e", join(dir, "flagged.ts"), "--probe-config", "/etc/probe.json"] });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "/seen" });
  const notice = await client.waitFor((record) => record.type === "extension_ui_request" && record.method === "notify", 10_000, from);
  expect(notice.message).toBe("/etc/probe.json");
  await client.close();
}, 30_000);
