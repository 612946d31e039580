/**
 * The `bash` / `abort_bash` commands in-process, through the host every entry point uses: the
 * agent, models, session and session-jsonl plugins are real; a test plugin taps `user_bash`.
 */
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHost, type HostRuntime } from "../../host/index.js";
import { definePlugin, silentLogger, type OutEvent, type PluginDefinition } from "../../kernel/index.js";
import type { UserBashVerdict } from "./api.js";
import agentPlugin from "../agent/index.js";
import modelsPlugin from "../models/index.js";
import sessionPlugin from "../session/index.js";
import sessionJsonlPlugin from "../session-jsonl/index.js";
import settingsPlugin from "../settings/index.js";
import bashPlugin from "./index.js";

let dir: string;
let host: HostRuntime;
let events: OutEvent[];

beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), "atomic-bash-commands-"))));
afterEach(async () => {
  await host?.shutdown("exit");
  await rm(dir, { recursive: true, force: true });
});

async function boot(options: { plugins?: PluginDefinition[]; persist?: boolean } = {}) {
  host = await createHost({
    cwd: dir,
    agentDir: dir,
    env: { PATH: process.env.PATH },
    plugins: [settingsPlugin, agentPlugin, modelsPlugin, sessionJsonlPlugin, sessionPlugin, bashPlugin, ...(options.plugins ?? [])],
    cli: options.persist ? { sessionDir: join(dir, "sessions") } : { noSession: true },
    readSettingsFiles: false,
    userPlugins: false,
    log: silentLogger,
  });
  events = [];
  host.subscribe((event) => events.push(event));
}

const send = (record: Record<string, unknown>) => host.send(record, "rpc") as Promise<any>;
const deltas = (id?: unknown) => events.filter((e) => e.type === "bash_execution_update" && (id === undefined || (e as { id?: unknown }).id === id)) as any[];
const stored = async () => ((await send({ type: "get_messages" })).data.messages as any[]).filter((m) => m.role === "bashExecution");
/** Resolves once a delta of request `id` has arrived (the command is running). */
async function started(id: unknown): Promise<void> {
  while (deltas(id).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
}
function guard(tap: (event: { command: string }) => UserBashVerdict | undefined | Promise<UserBashVerdict | undefined>): PluginDefinition {
  return definePlugin({ name: "bash-guard", apply: (k) => k.hooks.user_bash.tapPromise("bash-guard", async (event) => tap(event)) });
}

describe("bash command", () => {
  it("streams deltas under its id, answers with the result, and stores it once without an event", async () => {
    await boot();
    const response = await send({ id: "r1", type: "bash", command: "echo out; sleep 0.05; echo err >&2; exit 3" });
    expect(response).toEqual({ id: "r1", type: "response", command: "bash", success: true, data: { output: "out\nerr\n", exitCode: 3, cancelled: false, truncated: false } });
    expect(deltas("r1").map((d) => [d.channel, d.delta])).toEqual([
      ["stdout", "out\n"],
      ["stderr", "err\n"],
    ]);
    expect(Object.keys(deltas("r1")[0])).toEqual(["type", "id", "channel", "delta"]);
    expect(events.every((e) => e.type === "bash_execution_update")).toBe(true);
    expect(await stored()).toEqual([
      {
        role: "bashExecution",
        command: "echo out; sleep 0.05; echo err >&2; exit 3",
        output: "out\nerr\n",
        exitCode: 3,
        cancelled: false,
        truncated: false,
        fullOutputPath: null,
        timestamp: expect.any(Number),
      },
    ]);
  });

  it("a request without an id streams deltas without an id key; excludeFromContext is kept", async () => {
    await boot();
    const response = await send({ type: "bash", command: "echo hi", excludeFromContext: true });
    expect(response).toEqual({ type: "response", command: "bash", success: true, data: { output: "hi\n", exitCode: 0, cancelled: false, truncated: false } });
    expect(deltas()).toEqual([{ type: "bash_execution_update", channel: "stdout", delta: "hi\n" }]);
    expect((await stored())[0]).toMatchObject({ command: "echo hi", excludeFromContext: true });
  });

  it.each([
    [{}, "Invalid command: expected string"],
    [{ command: 42 }, "Invalid command: expected string"],
    [{ command: "" }, "Invalid command: expected non-empty string"],
    [{ command: "  \n" }, "Invalid command: expected non-empty string"],
    [{ command: "ls", excludeFromContext: "yes" }, "Invalid excludeFromContext: expected boolean"],
  ])("refuses bad input %j", async (fields, error) => {
    await boot();
    expect(await send({ id: 7, type: "bash", ...fields })).toEqual({ id: 7, type: "response", command: "bash", success: false, error });
    expect(await stored()).toEqual([]);
  });

  it("a shell that cannot start is a failed response, and nothing is stored", async () => {
    host = await createHost({
      cwd: dir,
      agentDir: dir,
      env: {},
      plugins: [settingsPlugin, agentPlugin, modelsPlugin, bashPlugin],
      settings: { shellPath: join(dir, "no-shell") },
      readSettingsFiles: false,
      userPlugins: false,
      log: silentLogger,
    });
    const response = await host.send({ type: "bash", command: "true" }, "rpc");
    expect(response).toMatchObject({ success: false, error: expect.stringMatching(/^Failed to run shell .*no-shell: /) });
    expect(await host.send({ type: "get_messages" })).toMatchObject({ data: { messages: [] } });
  });
});

describe("abort_bash", () => {
  it("cancels only the targeted request; the others finish", async () => {
    await boot();
    const a = send({ id: "a", type: "bash", command: "echo a; sleep 30" });
    const b = send({ id: "b", type: "bash", command: "echo b; sleep 0.3; echo b-done" });
    await started("a");
    expect(await send({ id: "x", type: "abort_bash", requestId: "a" })).toEqual({ id: "x", type: "response", command: "abort_bash", success: true });
    expect((await a).data).toEqual({ output: "a\n", cancelled: true, truncated: false });
    expect((await b).data).toEqual({ output: "b\nb-done\n", exitCode: 0, cancelled: false, truncated: false });
    const messages = await stored();
    expect(messages.find((m) => m.command.startsWith("echo a"))).toMatchObject({ cancelled: true, output: "a\n" });
    expect(messages.find((m) => m.command.startsWith("echo a"))).not.toHaveProperty("exitCode");
  });

  it("without requestId cancels every running request; with nothing running or an unknown id it succeeds", async () => {
    await boot();
    expect(await send({ type: "abort_bash" })).toEqual({ type: "response", command: "abort_bash", success: true });
    const one = send({ id: 1, type: "bash", command: "echo 1; sleep 30" });
    const two = send({ type: "bash", command: "echo 2; sleep 30" });
    await started(1);
    expect(await send({ type: "abort_bash", requestId: "1" })).toMatchObject({ success: true });
    expect(await send({ type: "abort_bash", requestId: "nope" })).toMatchObject({ success: true });
    expect(await send({ type: "abort_bash" })).toMatchObject({ success: true });
    expect([(await one).data.cancelled, (await two).data.cancelled]).toEqual([true, true]);
    expect(await send({ type: "abort_bash", requestId: null })).toMatchObject({ success: false, error: "Invalid requestId: expected string or number" });
  });

  it("teardown cancels and drains running requests, each answering cancelled", async () => {
    await boot();
    const running = send({ id: "long", type: "bash", command: "echo started; sleep 30" });
    await started("long");
    await host.shutdown("eof");
    expect((await running).data).toEqual({ output: "started\n", cancelled: true, truncated: false });
  });
});

describe("user_bash hook", () => {
  it("may rewrite the command", async () => {
    await boot({ plugins: [guard((event) => ((event.command = event.command.replace("world", "there")), undefined))] });
    expect((await send({ type: "bash", command: "echo hello world" })).data.output).toBe("hello there\n");
    expect((await stored())[0].command).toBe("echo hello there");
  });

  it("may refuse, with its reason or a default; a throwing tap refuses too", async () => {
    let verdict: () => UserBashVerdict = () => ({ block: true, reason: "Not on Fridays" });
    await boot({ plugins: [guard(() => verdict())] });
    expect(await send({ id: 1, type: "bash", command: "touch x" })).toEqual({ id: 1, type: "response", command: "bash", success: false, error: "Not on Fridays" });
    verdict = () => ({ block: true });
    expect((await send({ type: "bash", command: "touch x" })).error).toBe("Command blocked by a user_bash handler");
    verdict = () => {
      throw new Error("guard crashed");
    };
    expect((await send({ type: "bash", command: "touch x" })).error).toBe("Command blocked: guard crashed");
    expect(await readdir(dir)).not.toContain("x");
    expect(await stored()).toEqual([]);
  });

  it("ignores an answer that is not a verdict object", async () => {
    await boot({ plugins: [guard(() => "yes please" as unknown as UserBashVerdict)] });
    expect((await send({ type: "bash", command: "echo ran" })).data.output).toBe("ran\n");
  });

  it("may answer itself: no process, no deltas, the answer stored; a malformed answer fails", async () => {
    let result: unknown = { output: "from the handler", exitCode: 0 };
    await boot({ plugins: [guard(() => ({ result }) as UserBashVerdict)] });
    expect((await send({ id: "h", type: "bash", command: "touch y" })).data).toEqual({ output: "from the handler", exitCode: 0, cancelled: false, truncated: false });
    expect(deltas()).toEqual([]);
    expect(await readdir(dir)).not.toContain("y");
    expect(await stored()).toMatchObject([{ command: "touch y", output: "from the handler", exitCode: 0 }]);
    result = { output: 3 };
    expect((await send({ type: "bash", command: "touch y" })).error).toBe("A user_bash handler returned an invalid result: Invalid output: expected string");
  });
});

describe("where results are stored", () => {
  it("a result that outlives its session goes into that session's file only", async () => {
    await boot({ persist: true });
    await send({ type: "bash", command: "echo first" });
    const oldFile = (await send({ type: "get_state" })).data.sessionFile as string;
    const running = send({ id: "slow", type: "bash", command: "echo before; sleep 0.4; echo after" });
    await started("slow");
    expect(await send({ type: "new_session" })).toMatchObject({ success: true, data: { cancelled: false } });
    expect((await running).data.output).toBe("before\nafter\n");
    expect(
      deltas("slow")
        .map((d) => d.delta)
        .join(""),
    ).toBe("before\nafter\n");

    const oldEntries = (await readFile(oldFile, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(oldEntries.filter((e) => e.type === "message").map((e) => e.message.command)).toEqual(["echo first", "echo before; sleep 0.4; echo after"]);
    expect(await stored()).toEqual([]);
    await send({ type: "bash", command: "echo second" });
    const newEntries = (await send({ type: "get_entries" })).data.entries as any[];
    expect(newEntries.filter((e) => e.type === "message").map((e) => e.message.command)).toEqual(["echo second"]);
  });
});

describe("command schemas", () => {
  it("document their fields", async () => {
    await boot();
    const schema = host.kernel.commands.jsonSchema("abort_bash") as { properties: Record<string, unknown> };
    expect(schema.properties.requestId).toMatchObject({ type: ["string", "number"] });
    expect(host.kernel.commands.lane("bash")).toBe("immediate");
    expect(host.kernel.commands.lane("abort_bash")).toBe("immediate");
  });
});
