/**
 * The extension UI sub-protocol over the built CLI: each dialog's round trip (answer, cancel, a
 * reply of the wrong type), timeouts (auto-resolved, the late reply ignored with one stderr
 * line and nothing on stdout; the dialog's end announced as `extension_ui_resolved`), replies
 * answered on the immediate lane while the dialog's command holds the ordinary one, and teardown
 * cancelling a dialog nobody answered.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, startExtensionAgent, stderrContains, uiRequest, useExtensionAgents } from "./helpers/extension-agent.js";
import type { Record_, RpcClient } from "./helpers/rpc-client.js";

const UI_PROBE = resolve(import.meta.dirname, "fixtures/extensions/ui-probe.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions: [UI_PROBE] });
  clients.push(client);
  return client;
}

/**
 * Sends `/command`, waits for its dialog request, answers with `reply` (unless undefined), resolves
 * with the notify text. `unchecked`: the reply is deliberately off its schema (a wrong type).
 */
async function roundTrip(
  c: RpcClient,
  command: string,
  method: string,
  reply: Record<string, unknown> | undefined,
  unchecked = false,
): Promise<{ request: Record_; outcome: string }> {
  const from = c.records.length;
  const response = c.request({ type: "prompt", message: command });
  const request = await uiRequest(c, method, from);
  if (reply) c.send({ type: "extension_ui_response", id: request.id, ...reply }, { unchecked });
  expect((await response).success).toBe(true);
  const notice = await c.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify", undefined, from);
  return { request, outcome: String(notice.message) };
}

describe("extension UI dialogs over RPC", () => {
  it("select, confirm, input and editor: answered, cancelled, and a reply of the wrong type counts as cancelled", async () => {
    const c = await start();
    const select = await roundTrip(c, "/ask-select", "select", { value: "b" });
    expect(select.request).toEqual({ type: "extension_ui_request", id: select.request.id, method: "select", title: "Pick", options: ["a", "b"] });
    expect(typeof select.request.id).toBe("string");
    expect(select.outcome).toBe('select="b"');
    expect((await roundTrip(c, "/ask-select", "select", { cancelled: true })).outcome).toBe("select=null");
    expect((await roundTrip(c, "/ask-select", "select", { value: "not an option" })).outcome).toBe("select=null");

    const confirm = await roundTrip(c, "/ask-confirm", "confirm", { confirmed: true });
    expect(confirm.request).toMatchObject({ method: "confirm", title: "Sure?", message: "Really" });
    expect(confirm.outcome).toBe("confirm=true");
    expect((await roundTrip(c, "/ask-confirm", "confirm", { confirmed: false })).outcome).toBe("confirm=false");
    expect((await roundTrip(c, "/ask-confirm", "confirm", { cancelled: true })).outcome).toBe("confirm=false");
    expect((await roundTrip(c, "/ask-confirm", "confirm", { confirmed: "yes" }, true)).outcome).toBe("confirm=false");

    const input = await roundTrip(c, "/ask-input", "input", { value: "Ada" });
    expect(input.request).toMatchObject({ method: "input", title: "Name", placeholder: "hint" });
    expect(input.outcome).toBe('input="Ada"');
    expect((await roundTrip(c, "/ask-input", "input", { cancelled: true })).outcome).toBe("input=null");
    expect((await roundTrip(c, "/ask-input", "input", { value: ["Ada"] }, true)).outcome).toBe("input=null");

    const editor = await roundTrip(c, "/ask-editor", "editor", { value: "line 1\nline 2" });
    expect(editor.request).toMatchObject({ method: "editor", title: "Text", prefill: "prefill" });
    expect(editor.outcome).toBe('editor="line 1\\nline 2"');
    expect((await roundTrip(c, "/ask-editor", "editor", { cancelled: true })).outcome).toBe("editor=null");
    await stderrContains(c, "the reply does not fit the select dialog; resolved as cancelled");
    await stderrContains(c, "the reply does not fit the confirm dialog; resolved as cancelled");
    await stderrContains(c, "the reply does not fit the input dialog; resolved as cancelled");
  });

  it("a timeout resolves the dialog with its default; a later reply is ignored (stderr only, nothing on stdout)", async () => {
    const c = await start();
    for (const [command, method, outcome] of [
      ["/ask-select 150", "select", "select=null"],
      ["/ask-confirm 150", "confirm", "confirm=false"],
      ["/ask-input 150", "input", "input=null"],
      ["/ask-editor 150", "editor", "editor=null"],
    ] as const) {
      const { request, outcome: got } = await roundTrip(c, command, method, undefined);
      expect(request.timeout).toBe(150);
      expect(got).toBe(outcome);
      expect(c.records.filter((r) => r.type === "extension_ui_resolved" && r.id === request.id)).toEqual([{ type: "extension_ui_resolved", id: request.id, reason: "timeout" }]);
      const before = c.records.length;
      c.send({ type: "extension_ui_response", id: request.id, value: "late", confirmed: true });
      await c.ok({ type: "get_state" });
      expect(c.records.slice(before).map((r) => r.type)).toEqual(["response"]);
      await stderrContains(c, `Ignored extension_ui_response "${String(request.id)}": no dialog is waiting for it`);
    }
  });

  it("a reply is handled on the immediate lane: commands read after it wait for the dialog's command", async () => {
    const c = await start();
    const from = c.records.length;
    c.send({ type: "prompt", id: "p", message: "/ask-input" });
    const request = await uiRequest(c, "input", from);
    c.send({ type: "get_state", id: "s" });
    c.send({ type: "extension_ui_response", id: request.id, value: "answered" });
    await c.waitFor((r) => r.type === "response" && r.id === "s");
    const order = c.records.slice(from).map((r) => (r.type === "response" ? `response:${String(r.id)}` : `${r.type}:${String(r.method)}`));
    expect(order).toEqual(["extension_ui_request:input", "extension_ui_request:notify", "response:p", "response:s"]);
    await notified(c, 'input="answered"', from);
    expect(c.stderr).not.toContain("Ignored extension_ui_response");
  });

  it("end of input cancels a dialog nobody answered: its command finishes and the process exits 0", async () => {
    const c = await start();
    const from = c.records.length;
    c.send({ type: "prompt", id: "p", message: "/ask-confirm" });
    await uiRequest(c, "confirm", from);
    const { code } = await c.close();
    expect(code).toBe(0);
    expect(c.records.slice(from).map((r) => r.type)).toEqual(["extension_ui_request", "extension_ui_resolved", "extension_ui_request", "response"]);
    expect(c.records[from + 1]).toMatchObject({ id: c.records[from]!.id, reason: "aborted" });
    expect(c.records.at(-2)).toMatchObject({ method: "notify", message: "confirm=false" });
  });
});
