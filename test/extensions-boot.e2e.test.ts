/**
 * Extensions at boot, as real packages need them: an extension whose import does not finish within
 * the load budget (a first import of a large TypeScript package transpiles for tens of seconds on
 * a slow machine; here, a module that never finishes evaluating) fails alone, where the boot
 * phase's own limit used to end the process (exit 1); and a flag an extension registers has its
 * command-line value in `session_start` (pi-mcp-adapter reads `--mcp-config` there), where it
 * used to be parsed only after boot.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

it("an import that outlasts the load budget fails that extension, not the boot", async () => {
  const dir = tempDir("atomic-load-budget-");
  writeFileSync(join(dir, "fine.ts"), `export default function (pi: any) { pi.registerCommand("fine", { handler: async () => {} }); }\n`);
  writeFileSync(join(dir, "hangs.mjs"), `await new Promise(() => setInterval(() => {}, 1000));\nexport default function () {}\n`);
  const client = new RpcClient({ args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", "-e", join(dir, "fine.ts"), "-e", join(dir, "hangs.mjs")] });
  const error = await client.waitFor((record) => record.type === "extension_error" && record.extensionPath === join(dir, "hangs.mjs"), 30_000);
  expect(error.event).toBe("load");
  expect(String(error.error)).toMatch(/did not finish importing within the [\d.]+ s left for loading extensions/);
  const data = (await client.ok({ type: "get_commands" })) as { commands: { name: string }[] };
  expect(data.commands.map((entry) => entry.name)).toEqual(["fine"]);
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
  const client = new RpcClient({
    args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", "-e", join(dir, "flagged.ts"), "--probe-config", "/etc/probe.json"],
  });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "/seen" });
  const notice = await client.waitFor((record) => record.type === "extension_ui_request" && record.method === "notify", 10_000, from);
  expect(notice.message).toBe("/etc/probe.json");
  await client.close();
}, 30_000);
