/**
 * A Claude Pro/Max login's request, side by side: pi 1.6 itself (under Node 22) and Atomic's
 * built CLI each run one print-mode prompt with the same auth.json (an `anthropic` OAuth entry, as
 * pi's /login stores it) against the loopback recorder. What the subscription API depends on
 * must be the same: path, auth, the Claude Code identity headers and betas, the system blocks,
 * the tool names' casing.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import type { RecordedRequest } from "./fake-llm/server.js";
import { PI_16 } from "./helpers/pi-side-by-side.js";
import { NODE } from "./helpers/node.js";
import { CLI } from "./helpers/rpc-client.js";
import { registerStopper, tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
let node22: string | undefined;
let skipReason = "";
beforeAll(async () => {
  try {
    node22 = (await nodeRuntime(22)) as string;
  } catch (error) {
    skipReason = `pi 1.6 needs Node >= 22.19 and none could be had: ${(error as Error).message}`;
  }
}, 240_000);

const AUTH = { anthropic: { type: "oauth", refresh: "sk-ant-ort01-shared", access: "sk-ant-oat01-shared", expires: Date.now() + 86_400_000 } };
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_OAUTH_TOKEN: undefined, ANTHROPIC_AUTH_TOKEN: undefined };

/** One `-p` prompt through `agent`, with its own home and agent dir; the request the recorder got. */
async function promptThrough(agent: "pi" | "atomic"): Promise<RecordedRequest> {
  const home = tempDir(`login-pi-${agent}-`);
  const agentDir = join(home, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "auth.json"), JSON.stringify(AUTH), { mode: 0o600 });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
  const args = ["-p", "Say hi", "--no-session", "--provider", "anthropic", "--model", "claude-sonnet-5-5", "--tools", "read,bash"];
  const [node, cli] = agent === "pi" ? [node22!, join(PI_16, "dist/bundle/cli.js")] : [NODE, CLI];
  const env = {
    ...process.env,
    ...NO_KEYS,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    ATOMIC_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    NODE_DISABLE_COMPILE_CACHE: "1",
  };
  const child = spawn(node, [cli, ...args], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  registerStopper(() => (child.exitCode === null ? (child.kill("SIGKILL"), exited) : exited));
  const from = fake.requests.length;
  fake.script({ text: "hi" });
  const code = await exited;
  if (code !== 0) throw new Error(`${agent} exited ${code}: ${stderr}`);
  expect(fake.requests.length).toBe(from + 1);
  return fake.requests[from]!;
}

/** What the subscription API cares about, from one request. */
function essentials(request: RecordedRequest) {
  const headers = request.headers;
  const body = request.body as { system?: { type: string; text: string }[]; tools?: { name: string }[]; model: string };
  return {
    path: request.path,
    authorization: headers.authorization,
    apiKey: headers["x-api-key"],
    userAgent: headers["user-agent"],
    xApp: headers["x-app"],
    browserAccess: headers["anthropic-dangerous-direct-browser-access"],
    version: headers["anthropic-version"],
    betas: String(headers["anthropic-beta"] ?? "")
      .split(",")
      .filter((beta) => ["claude-code-20250219", "oauth-2025-04-20"].includes(beta)),
    firstSystemBlock: body.system?.[0]?.text,
    // pi's anchor for tools added mid-conversation (its native tool changes) is not about the login.
    toolNames: (body.tools ?? [])
      .map((tool) => tool.name)
      .filter((name) => name !== "__pi_deferred_placeholder__")
      .sort(),
    model: body.model,
  };
}

describe("a Claude Pro/Max login's request: pi 1.6 and Atomic", () => {
  it("send what the subscription API depends on alike, from the same auth.json", async () => {
    if (!node22) return console.log(`skipped: ${skipReason}`);
    const pi = essentials(await promptThrough("pi"));
    const atomic = essentials(await promptThrough("atomic"));
    expect(pi).toMatchObject({ path: "/v1/messages", authorization: "Bearer sk-ant-oat01-shared", firstSystemBlock: "You are Claude Code, Anthropic's official CLI for Claude." });
    expect(pi.toolNames).toEqual(["Bash", "Read"]);
    expect(atomic).toEqual(pi);
  }, 120_000);
});
