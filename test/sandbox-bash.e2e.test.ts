/**
 * The sandbox around the model's commands, with the real bubblewrap, over the built CLI talking
 * to the loopback fake LLM: each escape a command tries is refused (writes outside the workspace
 * directly, through a planted symlink or hard link, through /proc/self/root and `..`; reading the
 * fake HOME's ssh key and the agent's auth.json; reaching the fake LLM and a public name; a child
 * that outlives the command or the agent; filling /tmp), while the workspace and /tmp work.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { agentTempDir, RpcClient } from "./helpers/rpc-client.js";
import { AUTH_SECRET, describeWithBwrap, processesWith, sandboxLayout as layout, SSH_SECRET, type SandboxLayout as Layout } from "./helpers/sandbox.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) await client.close();
});

async function start(dirs: Layout, extraArgs: string[] = []): Promise<RpcClient> {
  await writeModelsJson(dirs.agentDir, fake.url);
  const client = new RpcClient({
    agentDir: dirs.agentDir,
    cwd: dirs.workspace,
    args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--sandbox", "workspace-write", ...extraArgs],
    env: { HOME: dirs.home, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
  });
  clients.push(client);
  return client;
}

type End = { toolCallId: string; isError: boolean; result: { content: { type: string; text?: string }[] } };

/** One model turn running each command with the bash tool; each tool_execution_end's text by id. */
async function runCommands(client: RpcClient, commands: Record<string, string>): Promise<Map<string, { isError: boolean; text: string }>> {
  fake.script({ toolCalls: Object.entries(commands).map(([id, command]) => ({ id, name: "bash", args: { command } })) }, { text: "done" });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "try" });
  await client.waitForEvent("agent_settled", 60_000, from);
  const ends = client.records.slice(from).filter((r) => r.type === "tool_execution_end") as unknown as End[];
  return new Map(ends.map((end) => [end.toolCallId, { isError: end.isError, text: end.result.content.map((block) => block.text ?? "").join("") }]));
}

const node = JSON.stringify(process.execPath);

describeWithBwrap("sandboxed bash (workspace-write, network off)", () => {
  it("refuses every write outside the workspace, keeps secrets unreadable, and leaves the workspace and /tmp working", async () => {
    const dirs = layout();
    const c = await start(dirs);
    const out = dirs.outside;
    const results = await runCommands(c, {
      inside: "echo kept > inside.txt && echo scratch > /tmp/scratch && cat /tmp/scratch",
      direct: `echo pwned > ${out}/direct.txt`,
      symlink: `ln -s ${out} link && echo pwned > link/via-symlink.txt`,
      hardlink: `ln ${out}/target.txt hard.txt && echo pwned >> hard.txt`,
      procRoot: `echo pwned > /proc/self/root${out}/via-proc.txt`,
      dots: "echo pwned > ../outside/via-dots.txt",
      ssh: `cat ${dirs.home}/.ssh/id_ed25519; cat ~/.ssh/id_*`,
      auth: `cat ${dirs.agentDir}/auth.json`,
      env: "env",
    });
    expect(results.get("inside")).toEqual({ isError: false, text: "scratch\n" });
    expect(readFileSync(join(dirs.workspace, "inside.txt"), "utf8")).toBe("kept\n");
    for (const id of ["direct", "symlink", "procRoot", "dots"]) {
      expect(results.get(id)?.isError, id).toBe(true);
      expect(results.get(id)?.text, id).toContain("Read-only file system");
      expect(results.get(id)?.text, id).toContain("blocked by the sandbox: write outside the workspace");
    }
    expect(results.get("hardlink")?.isError).toBe(true);
    expect(results.get("hardlink")?.text).toMatch(/Invalid cross-device link|Read-only file system|Operation not permitted/);
    expect(readdirNames(out)).toEqual(["target.txt"]);
    expect(readFileSync(join(out, "target.txt"), "utf8")).toBe("original\n");
    for (const id of ["ssh", "auth"]) {
      expect(results.get(id)?.isError, id).toBe(true);
      expect(results.get(id)?.text, id).toContain("Permission denied");
    }
    const everything = [...results.values()].map((result) => result.text).join("\n");
    expect(everything).not.toContain(SSH_SECRET);
    expect(everything).not.toContain(AUTH_SECRET);
    // The agent's own provider key (models.json's apiKey is read by the agent, not exported) and secret-named variables stay out.
    expect(results.get("env")?.text).not.toMatch(/^(OPENAI_API_KEY|ANTHROPIC_API_KEY|SSH_AUTH_SOCK)=/m);
    expect((await c.ok({ type: "get_state" })).sandbox).toMatchObject({ mode: "workspace-write", network: false, enforcement: "bubblewrap" });
  });

  it("cannot reach the loopback fake LLM the agent talks to, nor a public name", async () => {
    const dirs = layout();
    const c = await start(dirs);
    const get = (url: string) =>
      `${node} -e 'require("http").get(${JSON.stringify(url)}, (r) => console.log("status", r.statusCode)).on("error", (e) => { console.error("failed", e.code); process.exit(7) })'`;
    const lookup = `${node} -e 'require("dns").lookup("example.com", (e, a) => { if (e) { console.error("failed", e.code); process.exit(7) } console.log(a) })'`;
    const results = await runCommands(c, { llm: get(fake.url), publicName: lookup });
    // The agent itself reached the fake LLM (this run's two replies came from it).
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
    for (const id of ["llm", "publicName"]) {
      expect(results.get(id)?.isError, id).toBe(true);
      expect(results.get(id)?.text, id).toContain("blocked by the sandbox: there is no network");
    }
    expect(results.get("llm")?.text).toContain("failed ECONNREFUSED");
    // Not "not found": the resolver itself cannot be reached, so no query left the machine.
    expect(results.get("publicName")?.text).toContain("failed EAI_AGAIN");
  });

  it("codemode's nested calls are confined the same way, several at once", async () => {
    const dirs = layout();
    const c = await start(dirs, ["--tools", "+codemode"]);
    const out = dirs.outside;
    const code = [
      "const results = await Promise.allSettled([",
      `  tools.bash({ command: "echo pwned > ${out}/from-codemode.txt" }),`,
      `  tools.write({ path: "${out}/written-by-codemode.txt", content: "pwned" }),`,
      `  tools.read({ path: "${dirs.home}/.ssh/id_ed25519" }),`,
      '  tools.bash({ command: "echo inside > inside.txt && cat inside.txt" }),',
      "]);",
      'console.log(results.map((r) => r.status).join(" "));',
    ].join("\n");
    fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code } }] }, { text: "done" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "script" });
    await c.waitForEvent("agent_settled", 60_000, from);
    const nested = c.records.slice(from).filter((r) => r.type === "tool_execution_end" && r.parentToolCallId === "cm") as unknown as (End & { toolName: string })[];
    const texts = nested.map((end) => end.result.content.map((block) => block.text ?? "").join(""));
    expect(nested.map((end) => end.isError).sort()).toEqual([false, true, true, true]);
    expect(texts.join("\n")).toContain("blocked by the sandbox: write outside the workspace");
    expect(texts.join("\n")).toContain("Read-only file system");
    expect(texts.join("\n")).toMatch(/blocked by the sandbox: reading .*id_ed25519 is not allowed/);
    expect(texts.join("\n")).not.toContain(SSH_SECRET);
    expect(readdirNames(out)).toEqual(["target.txt"]);
    expect(readFileSync(join(dirs.workspace, "inside.txt"), "utf8")).toBe("inside\n");
  });

  it("an extension's tool that runs a command with pi.exec is confined too", async () => {
    const dirs = layout();
    const extension = join(dirs.root, "run-it.ts");
    writeFileSync(
      extension,
      [
        "export default (pi) => {",
        "  pi.registerTool({",
        '    name: "run_it", label: "run it", description: "Runs a shell command.",',
        '    parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },',
        "    async execute(_id, params) {",
        '      const r = await pi.exec("sh", ["-c", params.cmd]);',
        '      return { content: [{ type: "text", text: `code=${r.code} ${r.stdout}${r.stderr}` }] };',
        "    },",
        "  });",
        "};",
      ].join("\n"),
    );
    const c = await start(dirs, ["-e", extension]);
    fake.script({ toolCalls: [{ id: "ext", name: "run_it", args: { cmd: `echo pwned > ${dirs.outside}/from-extension.txt` } }] }, { text: "done" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "go" });
    await c.waitForEvent("agent_settled", 60_000, from);
    const end = c.records.slice(from).find((r) => r.type === "tool_execution_end") as unknown as End;
    expect(end.result.content[0]?.text).toMatch(/^code=[1-9]\d* .*Read-only file system/s);
    expect(readdirNames(dirs.outside)).toEqual(["target.txt"]);
  });

  it("keeps no child running after the command or the agent, and /tmp is private and bounded", async () => {
    const dirs = layout();
    const c = await start(dirs);
    const token = String(31_000 + Math.floor(Math.random() * 9_000));
    const marker = `atomic-sandbox-marker-${token}`;
    const results = await runCommands(c, {
      daemon: `(setsid nohup sleep ${token}1 >/dev/null 2>&1 &) ; nohup sleep ${token}2 >/dev/null 2>&1 & echo started`,
      fill: `touch /tmp/${marker}; dd if=/dev/zero of=/tmp/fill-${token} bs=1M count=600 2>&1 && exit 0; df -B1 --output=size /tmp | tail -1; exit 1`,
    });
    expect(results.get("daemon")).toEqual({ isError: false, text: "started\n" });
    expect(results.get("fill")?.isError).toBe(true);
    expect(results.get("fill")?.text).toContain("No space left on device");
    expect(results.get("fill")?.text).toMatch(/^\s*536870912$/m);
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(existsSync(`/tmp/fill-${token}`)).toBe(false);
    // The command's processes ended with it (its pid namespace is gone).
    expect(processesWith(`sleep ${token}`)).toEqual([]);

    // A command still running when the agent is killed dies with it.
    fake.script({ toolCalls: [{ id: "long", name: "bash", args: { command: `sleep ${token}3` } }] });
    await c.ok({ type: "prompt", message: "wait" });
    await c.waitForEvent("tool_execution_start");
    await waitUntil(() => processesWith(`sleep ${token}3`).length > 0);
    const pid = c.child.pid;
    c.child.kill("SIGKILL");
    await c.exited;
    // A killed agent cannot remove its private folder (mask file, proxy socket): it goes with the
    // agents' temp folder of this file.
    expect(readdirSync(agentTempDir()).some((name) => name.startsWith(`atomic-sandbox-${pid}-`))).toBe(true);
    await waitUntil(() => processesWith(`sleep ${token}3`).length === 0);
    expect(processesWith(`sleep ${token}`)).toEqual([]);
  });
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir).sort();
}

async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
