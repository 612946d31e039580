/**
 * What a command handler stores reaches the session, and the client, in the order it was asked
 * for, as in pi: `pi.sendMessage` (idle: stored at once) then `pi.appendEntry` is the message,
 * then the entry after it, even while some extension listens to `message_end`; and the
 * command's response comes after the events of what it stored.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const EXTENSION = `export default function (pi: any) {
  pi.on("message_end", () => {});
  pi.registerCommand("both", { handler: async () => {
    pi.sendMessage({ customType: "note", content: "first", display: true });
    pi.appendEntry("state", { second: true });
    pi.sendMessage({ customType: "note", content: "third", display: true });
  } });
}
`;

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

interface Entry {
  id: string;
  parentId: string | null;
  type: string;
  customType?: string;
  message?: { content?: unknown };
}

describe("the order of what an extension command stores", () => {
  it("sendMessage, appendEntry, sendMessage: stored and announced in that order, before the command's response", async () => {
    const file = join(tempDir("atomic-ext-"), "order.ts");
    writeFileSync(file, EXTENSION);
    const client = new RpcClient({
      agentDir: tempDir("atomic-agent-"),
      cwd: tempDir("atomic-cwd-"),
      args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "-e", file],
    });
    clients.push(client);
    await client.ok({ type: "prompt", message: "/both" }, 60_000);
    const { entries } = (await client.ok({ type: "get_entries" })) as { entries: Entry[] };
    expect(entries.map((entry) => (entry.type === "custom" ? `custom:${entry.customType}` : `${entry.type}:${String(entry.message?.content)}`))).toEqual([
      "message:first",
      "custom:state",
      "message:third",
    ]);
    expect(entries.map((entry) => entry.parentId)).toEqual([null, entries[0]!.id, entries[1]!.id]);
    const seen = client.records
      .map((record) =>
        record.type === "message_end"
          ? `message_end:${String((record.message as { content?: unknown }).content)}`
          : record.type === "entry_appended"
            ? `entry_appended:${(record.entry as Entry).customType}`
            : record.type === "response"
              ? `response:${String(record.command)}`
              : undefined,
      )
      .filter((label) => label !== undefined);
    expect(seen).toEqual(["message_end:first", "entry_appended:state", "message_end:third", "response:prompt", "response:get_entries"]);
  }, 60_000);
});
