/**
 * An extension whose import does not finish within the load budget (a first import of a large
 * TypeScript package transpiles for tens of seconds on a slow machine; here, a module that never
 * finishes evaluating) fails alone: the agent starts and serves, and the extensions loaded before
 * it work. Before, the boot phase's own limit ended the process (exit 1).
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
