import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHost, prepareHost } from "./index.js";
import { defineCommand, definePlugin, defineSetting, ErrorCode, type Logger, type PluginDefinition } from "../kernel/index.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "atomic-host-"));
  roots.push(root);
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".atomic"), { recursive: true });
  return { agentDir, cwd };
}

function recordingLog(lines: string[]): Logger {
  return { info: (m) => void lines.push(m), warn: (m) => void lines.push(m), error: (m) => void lines.push(m) };
}

const echo = definePlugin({
  name: "echo",
  settings: { greeting: defineSetting(() => z.string(), { description: "g" }), shell: defineSetting(() => z.string(), { scope: "trusted", description: "s" }) },
  flags: [{ name: "--loud", key: "loud", description: "l" }],
  apply(k) {
    k.registerCommand(
      defineCommand({
        name: "echo",
        input: () => z.object({ text: z.string() }),
        run: ({ text }, ctx) => ({ text, source: ctx.source, settings: k.config.settings, loud: k.config.cli["loud" as never] ?? false }),
      }),
    );
    k.registerTransport({ name: "test", description: "t", serve: async () => 7 });
  },
});

describe("createHost", () => {
  it("boots plugins with settings validated by their owners, flags parsed, and answers commands", async () => {
    const { agentDir, cwd } = dirs();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ greeting: "hi", transport: "auto" }));
    writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify({ shell: "./evil.sh" }));
    const lines: string[] = [];
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [echo], argv: ["--loud"], log: recordingLog(lines) });
    expect(await host.send({ type: "echo", id: 1, text: "x" })).toEqual({
      id: 1,
      type: "response",
      command: "echo",
      success: true,
      data: { text: "x", source: "sdk", settings: { greeting: "hi", transport: "auto" }, loud: true },
    });
    expect(lines).toEqual([expect.stringContaining('Ignored "shell"')]);
    expect(await host.serve("test")).toBe(7);
  });

  it("a bad settings value stops boot naming the file and key", async () => {
    const { agentDir, cwd } = dirs();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ greeting: 5 }));
    await expect(createHost({ cwd, agentDir, env: {}, plugins: [echo], log: recordingLog([]) })).rejects.toThrow(
      `Invalid settings file ${join(agentDir, "settings.json")}: Invalid greeting: expected string`,
    );
  });

  it("unknown flags fail after boot unless an open layer registered them", async () => {
    const { agentDir, cwd } = dirs();
    await expect(createHost({ cwd, agentDir, env: {}, plugins: [echo], argv: ["--plan"], log: recordingLog([]) })).rejects.toMatchObject({
      code: ErrorCode.USAGE,
      message: "Unknown option: --plan",
    });
    const lateFlag = definePlugin({ name: "ext", apply: (k) => k.openLayer("/ext.ts").registerFlag({ name: "--plan", key: "plan", description: "p" }) });
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [echo, lateFlag], argv: ["--plan"], log: recordingLog([]) });
    expect(host.config.cli["plan" as never]).toBe(true);
    const clashing = definePlugin({ name: "ext", apply: (k) => k.openLayer("/ext.ts").registerFlag({ name: "--mode", key: "m", value: "<m>", description: "m" }) });
    await expect(createHost({ cwd, agentDir, env: {}, plugins: [echo, clashing], log: recordingLog([]) })).rejects.toThrow(
      'Flag "--mode" from "/ext.ts" is already registered by "kernel"',
    );
  });

  it("an unknown mode lists the transports; positional arguments are refused where prompts are not taken", async () => {
    const { agentDir, cwd } = dirs();
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [echo], argv: ["stray"], log: recordingLog([]) });
    expect(() => host.serve("nope")).toThrow(expect.objectContaining({ code: ErrorCode.USAGE, message: 'Unknown mode "nope". Available: test' }));
    expect(() => host.serve("test")).toThrow('Unexpected argument "stray": --mode test takes its input on stdin, not as arguments');
  });

  it("a reply (a noResponse command such as extension_ui_response) gets no response; bad input is one stderr line", async () => {
    const { agentDir, cwd } = dirs();
    const lines: string[] = [];
    const received: string[] = [];
    const reply = definePlugin({
      name: "reply",
      apply(k) {
        k.registerCommand(
          defineCommand({ name: "answer", lane: "immediate", noResponse: true, input: () => z.object({ id: z.string() }), run: ({ id }) => void received.push(id) }),
        );
      },
    });
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [echo, reply], log: recordingLog(lines) });
    expect(await host.send({ type: "answer", id: "uuid-1" })).toBeUndefined();
    expect(await host.send({ type: "answer" })).toBeUndefined();
    expect(received).toEqual(["uuid-1"]);
    expect(lines).toEqual(["Ignored answer: Invalid id: expected string"]);
    expect(await host.send({ type: "extension_ui_response", id: "x" })).toMatchObject({ success: false, error: "Unknown command: extension_ui_response" });
  });

  it("teardown: closing (stop waiting on the client) -> records already read answered -> shutdown -> the rest", async () => {
    const { agentDir, cwd } = dirs();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const plugin: PluginDefinition = definePlugin({
      name: "p",
      apply(k) {
        k.registerCommand(
          defineCommand({
            name: "wait",
            input: () => z.object({}),
            run: async () => {
              await gate;
              order.push("wait answered");
            },
          }),
        );
        k.hooks.closing.tap(k.name, () => {
          order.push("closing");
          release();
        });
        k.hooks.shutdown.tap(k.name, () => void order.push("shutdown"));
      },
    });
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [plugin], log: recordingLog([]) });
    const answered = host.send({ type: "wait" });
    await host.shutdown("eof");
    expect(await answered).toMatchObject({ success: true });
    expect(order).toEqual(["closing", "wait answered", "shutdown"]);
    expect(await host.send({ type: "wait", id: 2 })).toEqual({ id: 2, type: "response", command: "wait", success: false, error: "Agent is shutting down" });
  });

  it("a sibling host has the same plugins and flags but its own folder, project settings and state", async () => {
    const { agentDir, cwd } = dirs();
    const other = join(cwd, "..", "other");
    mkdirSync(join(other, ".atomic"), { recursive: true });
    writeFileSync(join(other, ".atomic", "settings.json"), JSON.stringify({ greeting: "there" }));
    let applied = 0;
    const counter = definePlugin({
      name: "counter",
      apply(k) {
        applied++;
        let count = 0;
        k.registerCommand(defineCommand({ name: "count", input: () => z.object({}), run: () => ({ count: ++count, cwd: k.config.cwd }) }));
      },
    });
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [echo, counter], argv: ["--loud"], log: recordingLog([]) });
    const sibling = await host.openSibling({ cwd: other });
    expect(applied).toBe(2);
    await host.send({ type: "count" });
    expect(await sibling.send({ type: "count" })).toMatchObject({ data: { count: 1, cwd: other } });
    expect(await sibling.send({ type: "echo", text: "x" })).toMatchObject({ data: { settings: { greeting: "there" }, loud: true } });
    await sibling.shutdown("exit");
    expect(await host.send({ type: "count" })).toMatchObject({ data: { count: 2, cwd } });
  });

  it("--help needs no boot: prepareHost lists every plugin's flags", async () => {
    const { agentDir, cwd } = dirs();
    const prepared = await prepareHost({ cwd, agentDir, env: {}, plugins: [echo], argv: ["--help"] });
    expect(prepared.cli.help).toBe(true);
    expect(prepared.helpText()).toContain("--loud");
  });
});
