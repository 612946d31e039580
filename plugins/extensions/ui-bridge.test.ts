import { describe, expect, it } from "vitest";
import { silentLogger } from "../../kernel/index.js";
import { UiBridge, type UiRequest } from "./ui-bridge.js";
import { createUiContext } from "./ui-context.js";

function bridge() {
  const written: UiRequest[] = [];
  const warnings: string[] = [];
  const ended: string[] = [];
  const ui = new UiBridge(
    (request) => written.push(request),
    { ...silentLogger, warn: (line) => warnings.push(line) },
    (id, reason) => ended.push(`${id}:${reason}`),
  );
  return { ui, written, warnings, ended, ctx: createUiContext(ui) };
}

describe("UI bridge", () => {
  it("a dialog writes its request in the protocol's shape and resolves with the matching reply", async () => {
    const { ui, written, ctx } = bridge();
    const answer = ctx.select("Pick", ["a", "b"]);
    expect(written).toEqual([{ id: expect.any(String), method: "select", title: "Pick", options: ["a", "b"] }]);
    expect(ui.answer({ id: "other", value: "a" })).toBeUndefined();
    expect(ui.answer({ id: written[0]!.id, value: "b" })).toBe(true);
    expect(await answer).toBe("b");
    expect(ui.answer({ id: written[0]!.id, value: "a" })).toBeUndefined();
    expect(ui.waiting).toBe(0);
  });

  it("cancelled, wrong types and unknown options resolve with the dialog's default", async () => {
    const { ui, written, warnings, ctx } = bridge();
    const cases: [Promise<unknown>, Record<string, unknown>, unknown][] = [
      [ctx.confirm("t", "m"), { cancelled: true, confirmed: true }, false],
      [ctx.confirm("t", "m"), { confirmed: "yes" }, false],
      [ctx.confirm("t", "m"), { confirmed: true, cancelled: false }, true],
      [ctx.input("t"), { value: 3 }, undefined],
      [ctx.editor("t", "pre"), {}, undefined],
      [ctx.select("t", ["x"]), { value: "y" }, undefined],
    ];
    cases.forEach(([, reply], i) => ui.answer({ id: written[i]!.id, ...reply }));
    expect(await Promise.all(cases.map(([answer]) => answer))).toEqual(cases.map(([, , expected]) => expected));
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^extension_ui_response ".+": the reply does not fit the confirm dialog; resolved as cancelled$/);
  });

  it("a timeout is sent with the request and resolves the default by itself; signals and cancelAll dismiss", async () => {
    const { ui, written, ctx } = bridge();
    const timed = ctx.input("t", undefined, { timeout: 5 });
    expect(written[0]).toMatchObject({ method: "input", title: "t", timeout: 5 });
    expect(await timed).toBeUndefined();
    expect(ui.answer({ id: written[0]!.id, value: "late" })).toBeUndefined();

    const controller = new AbortController();
    const dismissed = ctx.confirm("t", "m", { signal: controller.signal });
    controller.abort();
    expect(await dismissed).toBe(false);
    const aborted = new AbortController();
    aborted.abort();
    expect(await ctx.select("t", ["a"], { signal: aborted.signal })).toBeUndefined();
    expect(written).toHaveLength(2);

    const pending = [ctx.editor("e"), ctx.select("s", ["a"])];
    ui.cancelAll();
    expect(await Promise.all(pending)).toEqual([undefined, undefined]);
  });

  it("a dialog that ends without a reply is announced once, with why; an answered one is not", async () => {
    const { ui, written, ended, ctx } = bridge();
    const timed = ctx.input("t", undefined, { timeout: 5 });
    await timed;
    const controller = new AbortController();
    const dismissed = ctx.confirm("t", "m", { signal: controller.signal });
    controller.abort();
    await dismissed;
    const answered = ctx.select("s", ["a"], { timeout: 60_000 });
    ui.answer({ id: written[2]!.id, value: "a" });
    await answered;
    const left = ctx.editor("e");
    ui.cancelAll();
    ui.cancelAll();
    await left;
    expect(ended).toEqual([`${written[0]!.id}:timeout`, `${written[1]!.id}:aborted`, `${written[3]!.id}:aborted`]);
  });

  it("fire-and-forget methods write requests without waiting; TUI-only ones degrade as pi's RPC mode does", async () => {
    const { written, ctx } = bridge();
    ctx.notify("hi");
    ctx.notify("careful", "warning");
    ctx.setStatus("k", "text");
    ctx.setStatus("k", undefined);
    ctx.setWidget("w", ["l1"], { placement: "belowEditor" });
    ctx.setWidget("w", () => "a component");
    ctx.setWidget("w", undefined);
    ctx.setTitle("title");
    ctx.pasteToEditor("pasted");
    expect(written.map(({ id: _id, ...rest }) => rest)).toEqual([
      { method: "notify", message: "hi", notifyType: "info" },
      { method: "notify", message: "careful", notifyType: "warning" },
      { method: "setStatus", statusKey: "k", statusText: "text" },
      { method: "setStatus", statusKey: "k" },
      { method: "setWidget", widgetKey: "w", widgetLines: ["l1"], widgetPlacement: "belowEditor" },
      { method: "setWidget", widgetKey: "w" },
      { method: "setTitle", title: "title" },
      { method: "set_editor_text", text: "pasted" },
    ]);
    expect(new Set(written.map((r) => r.id)).size).toBe(written.length);
    expect(await ctx.custom()).toBeUndefined();
    expect(ctx.getEditorText()).toBe("");
    expect(ctx.getAllThemes()).toEqual([]);
    expect(ctx.getTheme("dark")).toBeUndefined();
    expect(ctx.setTheme("dark")).toMatchObject({ success: false });
    // pi 1.6's RPC mode paints with the terminal's palette (its "system" theme, nothing reported): the same bytes.
    expect(ctx.theme.fg("accent", "text")).toBe("\x1b[38;5;5mtext\x1b[39m");
    expect(ctx.theme.fg("muted", "m")).toBe("\x1b[39m\x1b[2mm\x1b[22;39m");
    expect(ctx.theme.bg("selectedBg", "b")).toBe("\x1b[49mb\x1b[49m");
    ctx.setToolsExpanded(true);
    expect([ctx.getToolsExpanded(), ctx.getChatRenderSettings().toolOutputExpanded]).toEqual([true, true]);
  });

  it("without a client that answers (hasUI false), dialogs resolve at once and notices are dropped", async () => {
    const ctx = createUiContext(undefined);
    expect(await Promise.all([ctx.select("t", ["a"]), ctx.confirm("t", "m"), ctx.input("t"), ctx.editor("t")])).toEqual([undefined, false, undefined, undefined]);
    expect(() => ctx.notify("nobody listens")).not.toThrow();
  });
});
