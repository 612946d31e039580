/**
 * pi 1.6's example `jev-router.ts` unchanged, over the built CLI with `--model jev/auto`: the
 * virtual model asks TypeSafe's Jev classifier (the fake LLM's System One route) how demanding the
 * first prompt is, plans on gpt-5.6-sol ("complex") or gpt-5.6-terra (otherwise, or when the
 * classifier cannot be reached), and after the first successful `write` hands the rest of the
 * session to gpt-5.6-luna. The three models are OpenAI Codex's, reached with a stored ChatGPT
 * login (auth.json) at the fake's `/backend-api/codex/responses`. Also as in pi: the phase is kept
 * on the session (it survives a reopen), a session already on sol keeps it, requests outside the
 * loop (compaction's planner) go to luna, and without a login the request fails saying so.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "./fake-llm/server.js";
import { promptSettled, toolResults, useExtensionAgents } from "./helpers/extension-agent.js";
import { RpcClient } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const jevRouter = resolve(import.meta.dirname, "../node_modules/@earendil-works/pi-coding-agent/examples/extensions/jev-router.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

/** A ChatGPT access token as `atomic login openai-codex` stores it: a JWT naming the account. */
const CODEX_TOKEN = ["e30", Buffer.from(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "acct-jev" } })).toString("base64url"), "sig"].join(".");

interface Launch {
  /** TYPESAFE_API_KEY is set (default), or absent: the classifier cannot be called. */
  typesafeKey?: boolean;
  settings?: Record<string, unknown>;
  /** Default: jev/auto. */
  model?: string;
  /** Reopen the latest session of these folders (--continue); default: a new in-memory session. */
  continueIn?: { agentDir: string; cwd: string };
  /** A persisted session instead of --no-session. */
  persisted?: boolean;
  /** The stored Codex login is there (default). */
  codexLogin?: boolean;
}

/** The built CLI with jev-router, the Codex login and both providers pointed at the fake. */
async function start(launch: Launch = {}): Promise<RpcClient> {
  const agentDir = launch.continueIn?.agentDir ?? tempDir("atomic-agent-");
  if (!launch.continueIn) {
    const login = { type: "oauth", access: CODEX_TOKEN, refresh: "rt-jev", expires: Date.now() + 86_400_000, accountId: "acct-jev" };
    if (launch.codexLogin !== false) writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ "openai-codex": login }), { mode: 0o600 });
    // pi's way to point a provider elsewhere: its base URL in models.json, classifiers included.
    const providers = { typesafe: { baseUrl: `${fake.url}/typesafe/v1/` }, "openai-codex": { baseUrl: `${fake.url}/backend-api` } };
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
  }
  const session = launch.continueIn ? ["--continue"] : launch.persisted ? [] : ["--no-session"];
  const client = new RpcClient({
    agentDir,
    ...(launch.continueIn ? { cwd: launch.continueIn.cwd } : {}),
    ...(launch.settings ? { settings: launch.settings } : {}),
    env: { TYPESAFE_API_KEY: launch.typesafeKey === false ? undefined : "typesafe-key", OPENAI_API_KEY: undefined },
    args: ["--mode", "rpc", ...session, "--model", launch.model ?? "jev/auto", "-e", jevRouter],
  });
  clients.push(client);
  return client;
}

const classifications = () => fake.requests.filter((request) => request.format === "system-one");
const codexRequests = () => fake.requests.filter((request) => request.format === "openai-responses");
const modelOf = (request: RecordedRequest) => (request.body as { model: string }).model;
const routerStates = async (client: RpcClient) =>
  ((await client.ok({ type: "get_entries" })).entries as { type: string; customType?: string; data?: { state?: unknown } }[])
    .filter((entry) => entry.type === "custom" && entry.customType === "pi.virtual-model-state")
    .map((entry) => entry.data?.state);
const complexity = (complex: number) => ({
  answers: { complexity: { choice: complex >= 0.5 ? "complex" : "standard", probabilities: { complex, standard: 1 - complex }, confidence: 0.9 } },
});

describe("pi 1.6's jev-router example (jev/auto)", () => {
  it("plans a complex prompt on sol, then implements on luna after the first successful write", async () => {
    const client = await start();
    expect((await client.ok({ type: "get_state" })).model).toMatchObject({ provider: "jev", id: "auto" });

    fake.script(complexity(0.85), { text: "Writing it", toolCalls: [{ name: "write", args: { path: "plan.md", content: "the plan\n" } }] }, { text: "Written." });
    await promptSettled(client, "Redesign the session store across every plugin");
    expect(toolResults(client)).toEqual([expect.objectContaining({ tool: "write", isError: false })]);
    expect(readFileSync(join(client.cwd, "plan.md"), "utf8")).toBe("the plan\n");

    const [asked] = classifications();
    expect(classifications()).toHaveLength(1);
    expect(asked!.path).toBe("/typesafe/v1/systemone");
    expect(asked!.headers.authorization).toBe("Bearer typesafe-key");
    expect(asked!.body).toMatchObject({ model: "jev-latest", state: { prompt: "Redesign the session store across every plugin" } });
    expect(Object.keys((asked!.body as { questions: object }).questions)).toEqual(["complexity"]);

    // The write's result goes to luna in the same turn; the codex route carried the login.
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-sol", "gpt-5.6-luna"]);
    for (const request of codexRequests()) {
      expect(request.path).toBe("/backend-api/codex/responses");
      expect(request.headers).toMatchObject({ authorization: `Bearer ${CODEX_TOKEN}`, "chatgpt-account-id": "acct-jev" });
    }

    // The session stays on luna: no second classification.
    fake.script({ text: "Next step done." });
    await promptSettled(client, "Now add the tests");
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-sol", "gpt-5.6-luna", "gpt-5.6-luna"]);
    expect(classifications()).toHaveLength(1);
  }, 60_000);

  it("plans an ordinary prompt on terra and stays there until something is written", async () => {
    const client = await start();
    fake.script(complexity(0.2), { text: "A typo fix, then." });
    await promptSettled(client, "Fix the typo in the README");
    fake.script({ text: "Looked at it.", toolCalls: [{ name: "read", args: { path: "missing.md" } }] }, { text: "Nothing to read." });
    await promptSettled(client, "Read missing.md");
    // A failed read is no edit: still planning on terra, and still one classification.
    expect(toolResults(client)).toEqual([expect.objectContaining({ tool: "read", isError: true })]);
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-terra", "gpt-5.6-terra", "gpt-5.6-terra"]);
    expect(classifications()).toHaveLength(1);
  }, 60_000);

  it("falls back to terra when the classifier has no key (nothing is sent to TypeSafe)", async () => {
    const client = await start({ typesafeKey: false });
    fake.script({ text: "Writing it", toolCalls: [{ name: "write", args: { path: "out.txt", content: "x" } }] }, { text: "Done." });
    await promptSettled(client, "Redesign the session store across every plugin");
    expect(existsSync(join(client.cwd, "out.txt"))).toBe(true);
    expect(classifications()).toEqual([]);
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-terra", "gpt-5.6-luna"]);
  }, 60_000);

  it("an automatic compaction inside a run is a direct request: luna, no classification, the phase unchanged", async () => {
    // A window this nearly reserved makes every run end over the threshold; everything is region.
    const client = await start({ settings: { compaction: { reserveTokens: 271_990, preserveRecent: 0 } } });
    const longAnswer = Array.from({ length: 30 }, (_, i) => `Step ${i + 1} of the plan.`).join("\n");
    fake.script(complexity(0.9), { text: longAnswer }, { text: "1,10" });
    const from = client.records.length;
    await promptSettled(client, "Redesign the session store across every plugin");
    await client.waitForEvent("compaction_end", 15_000, from);
    const planner = codexRequests()[1]!;
    expect(JSON.stringify(planner.body)).toContain("numbered-transcript");
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-sol", "gpt-5.6-luna"]);
    expect(classifications()).toHaveLength(1);
    expect(await routerStates(client)).toEqual([{ phase: "planning", model: "gpt-5.6-sol" }]);
  }, 60_000);

  it("the phase lives on the session: reopened (--continue), it stays on luna without classifying again", async () => {
    const first = await start({ persisted: true });
    fake.script(complexity(0.9), { text: "Writing it", toolCalls: [{ name: "write", args: { path: "a.txt", content: "a" } }] }, { text: "Done." });
    await promptSettled(first, "Redesign the session store across every plugin");
    await first.close();
    const reopened = await start({ continueIn: { agentDir: first.agentDir, cwd: first.cwd } });
    expect((await reopened.ok({ type: "get_state" })).messageCount).toBe(4);
    fake.script({ text: "Continued." });
    await promptSettled(reopened, "Carry on");
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-sol", "gpt-5.6-luna", "gpt-5.6-luna"]);
    expect(classifications()).toHaveLength(1);
  }, 60_000);

  it("a session already planning on sol keeps it when switched to jev/auto; the thinking level is the reasoning effort", async () => {
    const client = await start({ model: "openai-codex/gpt-5.6-sol" });
    await promptSettled(client, "Look around first");
    await client.ok({ type: "set_model", provider: "jev", modelId: "auto" });
    await client.ok({ type: "set_thinking_level", level: "high" });
    await promptSettled(client, "Now plan the redesign");
    expect(classifications()).toEqual([]);
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-sol", "gpt-5.6-sol"]);
    expect((codexRequests()[1]!.body as { reasoning?: { effort?: string } }).reasoning?.effort).toBe("high");
  }, 60_000);

  it("a classifier that refuses the request (HTTP 400, not retried) plans on terra", async () => {
    const client = await start();
    fake.script({ status: 400, errorMessage: "prompt too long" }, { text: "Planned." });
    await promptSettled(client, "Redesign the session store across every plugin");
    expect(classifications()).toHaveLength(1);
    expect(codexRequests().map(modelOf)).toEqual(["gpt-5.6-terra"]);
  }, 60_000);

  it("without a Codex login the request fails, naming the model the router picked", async () => {
    const client = await start({ codexLogin: false });
    fake.script(complexity(0.9));
    const from = await promptSettled(client, "Redesign the session store across every plugin");
    type Ended = { role: string; stopReason?: string; errorMessage?: string };
    const ends = client.records.slice(from).flatMap((r) => (r.type === "message_end" ? [r.message as Ended] : []));
    expect(ends.at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: "The router of jev/auto picked openai-codex/gpt-5.6-sol, which has no credentials",
    });
    expect(codexRequests()).toEqual([]);
  }, 60_000);
});
