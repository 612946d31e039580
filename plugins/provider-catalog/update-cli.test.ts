/** `atomic models update` in offline mode: no request leaves (a loopback catalog counts them), and it says why. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runModelsCommand } from "./update-cli.js";

let server: Server;
let url: string;
let requests = 0;
let agentDir: string;

beforeAll(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "atomic-models-update-"));
  server = createServer((_req, res) => {
    requests++;
    const model = {
      id: "groq/fine-8b",
      name: "Fine 8B",
      tool_call: true,
      modalities: { input: ["text"], output: ["text"] },
      cost: { input: 0.1, output: 0.2 },
      limit: { context: 65536, output: 8192 },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ groq: { id: "groq", models: { [model.id]: model } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(agentDir, { recursive: true, force: true });
});

async function update(env: NodeJS.ProcessEnv, argv = ["update", "groq"]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (stream: PassThrough) => {
    let out = "";
    stream.on("data", (chunk: Buffer) => (out += chunk.toString()));
    return () => out;
  };
  const [out, err] = [text(stdout), text(stderr)];
  const code = await runModelsCommand(argv, { agentDir, stdout, stderr, env: { ATOMIC_MODELS_CATALOG_URL: url, ...env }, today: "2026-12-05" });
  return { code, stdout: out(), stderr: err() };
}

describe("atomic models update", () => {
  it("offline (PI_OFFLINE or ATOMIC_OFFLINE) asks nothing and says so; online it fetches", async () => {
    for (const offline of [{ PI_OFFLINE: "1" }, { ATOMIC_OFFLINE: "true" }, { PI_OFFLINE: "yes" }]) {
      const run = await update(offline);
      const name = Object.keys(offline)[0];
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: `Cannot refresh the catalogs offline (${name} is set): ${url} was not asked. Nothing changed: the catalog in use stays.\n`,
      });
    }
    expect(requests).toBe(0);
    expect(await readdir(agentDir)).toEqual([]);
    // Not offline ("0" is not a yes): the same command reaches the catalog and writes it.
    const online = await update({ PI_OFFLINE: "0" });
    expect(online.code, online.stderr).toBe(0);
    expect(requests).toBe(1);
    expect(await readdir(join(agentDir, "catalog"))).toEqual(["groq.json"]);
  });

  it("an unknown command exits 2 with the usage, which says how the models are listed", async () => {
    const before = requests;
    const run = await update({}, ["list"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Unknown models command: list\nUsage:\n/);
    expect(run.stderr).toMatch(/^ {2}atomic --list-models \[pattern\] +list the models, and whether their provider has credentials$/m);
    expect(requests).toBe(before);
  });
});
