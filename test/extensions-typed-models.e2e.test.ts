/**
 * pi 1.6's typed models through an extension's `ctx.modelRegistry`, over the built CLI: the
 * classifier catalog listed, TypeSafe's available with its key, and `classify()` sent to the fake
 * LLM's System One route (the request as pi sends it, the answers back); an unknown model is an
 * error result. The typed catalog and the call code load on first use only: a process that lists
 * chat models reads neither; the first classification reads both. pi's call options (the
 * caller's key, headers, identity, onPayload, onResponse, retries) reach the wire.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";

const probe = resolve(import.meta.dirname, "fixtures/extensions/typed-models-probe.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

const report = async (client: RpcClient, command: string) => {
  const from = client.records.length;
  await client.ok({ type: "prompt", message: `/${command}` });
  return JSON.parse(String((await notified(client, new RegExp(`^${command} `), from)).message).slice(command.length + 1));
};

/** Names every bundle chunk and the typed catalog as the process opens them, on stderr. */
function readRecorder(dir: string): string {
  const preload = join(dir, "record-reads.cjs");
  writeFileSync(
    preload,
    `const fs = require("node:fs");
for (const name of ["openSync", "readFileSync"]) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    const text = String(path);
    if (/[\\\\/]chunks[\\\\/]|typed-models\\.json$/.test(text)) process.stderr.write("[read] " + text.split(/[\\\\/]/).pop() + "\\n");
    return original.call(this, path, ...rest);
  };
}
`,
  );
  return preload;
}
const reads = (client: RpcClient) => [...client.stderr.matchAll(/^\[read\] (.+)$/gm)].map((match) => match[1]!);

describe("an extension's ctx.modelRegistry typed models (pi 1.6)", () => {
  it("lists the classifiers and classifies with TypeSafe's System One; the catalog and call code load on first use", async () => {
    const agentDir = tempDir("atomic-agent-");
    const preload = readRecorder(agentDir);
    const client = await startExtensionAgent(fake, {
      extensions: [probe],
      agentDir,
      // pi's way to point a provider elsewhere: its base URL in models.json, classifiers included.
      providers: { typesafe: { baseUrl: `${fake.url}/typesafe/v1/` } },
      env: { TYPESAFE_API_KEY: "typesafe-key", NODE_OPTIONS: `--require ${preload}` },
    });
    clients.push(client);

    expect(await report(client, "chat-models")).toEqual(["fake-1"]);
    const atStart = reads(client);
    expect(atStart.some((name) => name.startsWith("load-all-"))).toBe(true);
    expect(atStart).not.toContain("typed-models.json");

    fake.script({
      answers: { upset: { probability: 0.93 }, topic: { choice: "bug", probabilities: { bug: 0.8, praise: 0.2 }, confidence: 0.8 } },
      usage: { input: 42, output: 0 },
    });
    const got = await report(client, "classify");
    expect(got.listed).toEqual(expect.arrayContaining(["jev-latest"]));
    expect(got.types).toEqual(["classifier"]);
    expect(got.jev).toEqual({ type: "classifier", api: "typesafe-system-one", baseUrl: `${fake.url}/typesafe/v1/` });
    expect(got.available).toEqual(got.listed);
    expect(got.result).toMatchObject({
      api: "typesafe-system-one",
      provider: "typesafe",
      model: "jev-latest",
      stopReason: "stop",
      answers: { upset: { type: "bool", probability: 0.93 }, topic: { type: "choice", choice: "bug", probabilities: { bug: 0.8, praise: 0.2 }, confidence: 0.8 } },
      usage: { input: 42, output: 0, totalTokens: 42 },
    });
    expect(got.unknown).toEqual({ stopReason: "error", errorMessage: 'Unknown classifier model "typesafe/no-such": ctx.modelRegistry.getModelsOfType("classifier") lists them' });

    const sent = fake.requests.filter((request) => request.format === "system-one");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe("/typesafe/v1/systemone");
    expect(sent[0]!.headers.authorization).toBe("Bearer typesafe-key");
    expect(sent[0]!.body).toEqual({
      model: "jev-latest",
      state: { message: "It broke again, fix it now" },
      questions: {
        upset: { type: "noul", instructions: "Is the user upset?", criteria: { true: "upset", false: "calm" } },
        topic: { type: "choice", instructions: "What is it about?", criteria: { bug: "Something broke", praise: "Thanks" } },
      },
    });
    // The first typed lookup read the catalog; the first call loaded code startup never loaded.
    const later = reads(client).slice(atStart.length);
    expect(later).toContain("typed-models.json");
    expect(later.filter((name) => name.endsWith(".cjs") && !atStart.includes(name)).length).toBeGreaterThan(0);
  }, 60_000);

  it("honours pi 1.6's call options: the caller's key (no TYPESAFE_API_KEY) or env, headers, identity, onPayload, onResponse and a retry; a wrong option type is refused by name", async () => {
    const client = await startExtensionAgent(fake, { extensions: [probe], providers: { typesafe: { baseUrl: `${fake.url}/typesafe/v1/` } }, env: { TYPESAFE_API_KEY: undefined } });
    clients.push(client);
    const answers = { upset: { probability: 0.2 }, topic: { choice: "praise", probabilities: { bug: 0.1, praise: 0.9 }, confidence: 0.9 } };
    fake.script({ status: 503, headers: { "retry-after-ms": "1" } }, { answers }, { answers });
    const got = await report(client, "classify-options");
    expect(got).toEqual({
      result: {
        stopReason: "stop",
        answers: { upset: { type: "bool", probability: 0.2 }, topic: { type: "choice", choice: "praise", probabilities: { bug: 0.1, praise: 0.9 }, confidence: 0.9 } },
      },
      responses: [200],
      viaEnv: { stopReason: "stop" },
      wrong: 'classify: options.timeoutMs must be a positive number of milliseconds, got "soon"',
    });
    // The 503 was retried once (maxRetries: 1); both attempts carried the caller's key, header and User-Agent and the rewritten state.
    const sent = fake.requests.filter((request) => request.format === "system-one");
    expect(sent).toHaveLength(3);
    expect(sent[2]!.headers.authorization).toBe("Bearer env-key");
    for (const request of sent.slice(0, 2)) {
      expect(request.headers).toMatchObject({ authorization: "Bearer caller-key", "x-probe": "1", "user-agent": "probe-agent/1" });
      expect((request.body as { state: unknown }).state).toEqual({ message: "rewritten by onPayload" });
    }
  }, 60_000);
});
