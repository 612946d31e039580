/** Both forwarders, run as they are inside the sandbox but here: the port listens before the command starts, connections reach the proxy's socket, the command's status is theirs. */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findForwarder, throughForwarder, type Forwarder } from "./forwarder.js";
import { findOnPath } from "./probe.js";
import { startProxy, type RunningProxy } from "./proxy.js";

let target: Server;
let targetPort = 0;
let dir: string;
let proxy: RunningProxy;
let perl: Forwarder | undefined;

beforeAll(async () => {
  target = createServer((_req, res) => res.end("reached"));
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetPort = (target.address() as { port: number }).port;
  dir = await mkdtemp(join(tmpdir(), "atomic-forwarder-test-"));
  proxy = await startProxy(["127.0.0.1"], { socketPath: join(dir, "proxy.sock") });
  const found = await findForwarder(process.env, findOnPath);
  perl = found.kind === "perl" ? found : undefined;
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitUntilFree(port: number): Promise<void> {
  for (let tries = 0; ; tries++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createNetServer().once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return;
    if (tries > 100) throw new Error(`port ${port} still held by a forwarder`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function run(forwarder: Forwarder, port: number, script: string): Promise<{ code: number; stdout: string }> {
  const command = throughForwarder(forwarder, { file: process.execPath, args: ["-e", script] }, { socket: proxy.address, port });
  return new Promise((resolve) =>
    execFile(command.file, command.args, { timeout: 20_000 }, (error, stdout) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout })),
  );
}

const client = (port: number, target: string) =>
  `require("http").get({ host: "127.0.0.1", port: ${port}, path: ${JSON.stringify(target)} }, (r) => { let b = ""; r.on("data", (c) => (b += c)); r.on("end", () => { console.log(r.statusCode, b.trim()); process.exit(3); }); }).on("error", (e) => { console.log("error", e.code); process.exit(9); });`;

describe.each([
  ["node", () => ({ kind: "node" as const, program: process.execPath })],
  ["perl", () => perl],
])("the %s forwarder", (name, forwarderOf) => {
  it("listens before the command runs, forwards to the proxy, and exits with the command's status", async (context) => {
    const forwarder = forwarderOf();
    if (!forwarder) return context.skip(`no perl with its Socket module here (${name})`);
    const port = await freePort();
    expect(await run(forwarder, port, client(port, `http://127.0.0.1:${targetPort}/`))).toEqual({ code: 3, stdout: "200 reached\n" });
    const again = await freePort();
    const refused = await run(forwarder, again, client(again, "http://example.com/"));
    // Outside a sandbox nothing kills the forwarder with the command: it leaves by itself within a second or so.
    await waitUntilFree(port);
    expect(refused.stdout).toBe("403 blocked by the sandbox: network access to example.com is not allowed (allowed: 127.0.0.1)\n");
  });
});
