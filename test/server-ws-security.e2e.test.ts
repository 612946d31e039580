/**
 * `atomic serve --listen ws://...`: who gets in (issue 35; docs/decisions.md, Security). Every
 * refusal happens before the upgrade, as a plain HTTP answer: no token or a wrong one 401, a token
 * in the URL 400, a foreign Origin or a non-loopback Host 403. The token file is made 0600 and a
 * wider one refuses the start; a non-loopback bind needs --allow-remote. An agent another client
 * is running is untouched by all of it.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/rpc-client.js";
import { REPLAY_ARGS, tempDir } from "./helpers/server.js";
import { get, startWsServer, upgrade, WsClient } from "./helpers/ws-server.js";

describe("atomic serve over WebSocket: security", { timeout: 120_000 }, () => {
  it("refuses a missing, wrong or URL-borne token, a foreign Origin and a foreign Host before the upgrade; the agent of another client goes on", async () => {
    const { server, port, token, url } = await startWsServer({ settings: { serve: { allowOrigins: ["https://ui.example"] } } });
    const tokenFile = join(server.agentDir, "serve", "token");
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // A client with an agent that runs through all of it.
    const owner = await WsClient.open(url, token);
    const { agent } = await owner.ok({ type: "agent_open" });
    owner.send({ type: "prompt", agent, message: "Please create a notes file", id: "run" });

    const bearer = { Authorization: `Bearer ${token}` };
    const refusals: [string, Record<string, string>, number, string, string?][] = [
      ["no token", {}, 401, "A token is required"],
      ["a wrong token", { Authorization: "Bearer wrong" }, 401, "The token is wrong"],
      ["a wrong subprotocol token", { "Sec-WebSocket-Protocol": "atomic.bearer.wrong" }, 401, "The token is wrong"],
      ["a right and a wrong token", { ...bearer, "Sec-WebSocket-Protocol": "atomic.bearer.wrong" }, 401, "The token is wrong"],
      ["a token in the query", bearer, 400, "A token in the URL is refused", `/?token=${token}`],
      ["the token as another query value", bearer, 400, "A token in the URL is refused", `/?t=${token}`],
      ["a foreign Origin", { ...bearer, Origin: "http://evil.example" }, 403, "Origin http://evil.example is not allowed"],
      ["a page of another port", { ...bearer, Origin: `http://127.0.0.1:${port + 1}` }, 403, "is not allowed"],
      ["Origin null", { ...bearer, Origin: "null" }, 403, "Origin null is not allowed"],
      ["a rebinding Host", { ...bearer, Host: `evil.example:${port}` }, 403, 'Host "evil.example:' + port + '" is not a loopback name'],
      ["a rebinding Host with the page's Origin", { ...bearer, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }, 403, "is not a loopback name"],
      ["another path", bearer, 404, "WebSocket connections go to /", "/other"],
    ];
    for (const [what, headers, status, message, path] of refusals) {
      const answer = await upgrade(port, headers, path);
      expect({ what, status: answer.status }).toEqual({ what, status });
      expect(JSON.parse(answer.body).error, what).toContain(message);
      expect(answer.socket, what).toBeUndefined();
      if (status === 401) expect(answer.headers["www-authenticate"]).toBe("Bearer");
    }
    // What is let in: a bearer header, the browser's subprotocol (echoed), the page's own origin, a listed origin, localhost and [::1]-style names.
    const accepted: [string, Record<string, string>][] = [
      ["a bearer header", bearer],
      ["the subprotocol", { "Sec-WebSocket-Protocol": `chat, atomic.bearer.${token}` }],
      ["the page's own origin", { ...bearer, Origin: `http://127.0.0.1:${port}` }],
      ["localhost", { ...bearer, Host: `localhost:${port}`, Origin: `http://localhost:${port}` }],
      ["a listed origin", { ...bearer, Origin: "https://ui.example" }],
    ];
    for (const [what, headers] of accepted) {
      const answer = await upgrade(port, headers);
      expect({ what, status: answer.status }).toEqual({ what, status: 101 });
      if (headers["Sec-WebSocket-Protocol"]) expect(answer.headers["sec-websocket-protocol"]).toBe(`atomic.bearer.${token}`);
      answer.socket!.destroy();
    }

    // Health checks need no token, but the same Host and Origin checks.
    expect(await get(port, "/healthz")).toMatchObject({ status: 200, body: '{"status":"up"}' });
    expect(await get(port, "/readyz")).toMatchObject({ status: 200, body: '{"status":"ready"}' });
    expect((await get(port, "/healthz", { Origin: "http://evil.example" })).status).toBe(403);
    expect((await get(port, "/readyz", { Host: "evil.example" })).status).toBe(403);
    expect((await get(port, `/healthz?access_token=${token}`)).status).toBe(400);
    // No page without --web; nothing else is served.
    expect(await get(port, "/")).toMatchObject({ status: 404 });

    // The token never reached a log.
    expect(server.stderr).not.toContain(token);
    // The run went on undisturbed, every event in order.
    await owner.waitFor((r) => r.agent === agent && r.type === "agent_settled", 60_000);
    const seqs = owner.records.filter((r) => r.agent === agent && typeof r.seq === "number").map((r) => r.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(readFileSync(join(server.cwd, "notes", "hello.md"), "utf8")).toContain("Hello");
    expect((await owner.ok({ type: "server_info" })).counts.connections).toBe(1);
  });

  it("an allowed origin is compared as browsers write it: a default port, capitals or a trailing slash still let that page in", async () => {
    const { server, port, token } = await startWsServer({ settings: { serve: { allowOrigins: ["HTTPS://UI.Example:443/", "http://127.0.0.1:5173//"] } } });
    for (const origin of ["https://ui.example", "http://127.0.0.1:5173"]) {
      const answer = await upgrade(port, { Authorization: `Bearer ${token}`, Origin: origin });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 101 });
      answer.socket!.destroy();
    }
    expect((await upgrade(port, { Authorization: `Bearer ${token}`, Origin: "https://ui.example:8443" })).status).toBe(403);
    await server.stop();
  });

  it("keeps the token across restarts; refuses to start on a token file group or others can read, or on one that holds no token", async () => {
    const first = await startWsServer();
    await first.server.stop();
    const second = await startWsServer({ agentDir: first.server.agentDir });
    expect(second.token).toBe(first.token);
    await second.server.stop();

    const tokenFile = join(first.server.agentDir, "serve", "token");
    chmodSync(tokenFile, 0o644);
    const refused = await runCli(["serve", "--listen", "ws://127.0.0.1:0", ...REPLAY_ARGS], { cwd: first.server.cwd, agentDir: first.server.agentDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Refusing to start: the token file ${tokenFile} is readable by group or others (mode 644)`);
    expect(refused.stderr).not.toContain(first.token);
    // Left as it was: a token that may have leaked is for its owner to replace.
    expect(statSync(tokenFile).mode & 0o777).toBe(0o644);
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(first.token);

    const agentDir = tempDir("atomic-agent-");
    mkdirSync(join(agentDir, "serve"), { recursive: true, mode: 0o700 });
    writeFileSync(join(agentDir, "serve", "token"), "short\n", { mode: 0o600 });
    const empty = await runCli(["serve", "--listen", "ws://127.0.0.1:0", ...REPLAY_ARGS], { cwd: first.server.cwd, agentDir });
    expect(empty).toMatchObject({ code: 1, stderr: expect.stringContaining("does not hold a token (43 base64url characters); delete it to make a new one") });
  });

  it("binds loopback only unless --allow-remote; no TLS in-process; --web needs a ws listener", async () => {
    const folder = tempDir("atomic-ws-");
    const usage: [string[], string][] = [
      [["--listen", "ws://0.0.0.0:0"], "Refusing to listen on ws://0.0.0.0:0: 0.0.0.0 is not a loopback address; add --allow-remote"],
      [["--listen", "ws://[::]:0"], "Refusing to listen on ws://[::]:0: :: is not a loopback address"],
      [["--listen", "ws://example.com:0"], "example.com is not a loopback address"],
      [["--listen", "wss://127.0.0.1:0"], "atomic serve speaks no TLS itself"],
      [["--listen", "ws://127.0.0.1"], "expected ws://HOST:PORT with a port"],
      [["--listen", "ws://127.0.0.1:0/path"], "with no path, query or credentials"],
      [["--listen", "unix:", "--web"], "--web serves the page on a WebSocket listener"],
    ];
    for (const [args, message] of usage) {
      const run = await runCli(["serve", ...args, ...REPLAY_ARGS], { cwd: folder, agentDir: folder });
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(message);
    }

    // With --allow-remote: any address binds, any Host is answered; the token is still required.
    const { server, port, token } = await startWsServer({ host: "0.0.0.0", extra: ["--allow-remote"] });
    expect(server.stderr).toContain(`{"listening":"ws://0.0.0.0:${port}"}`);
    expect((await upgrade(port, { Host: `agents.example:${port}` })).status).toBe(401);
    const answer = await upgrade(port, { Host: `agents.example:${port}`, Authorization: `Bearer ${token}` });
    expect(answer.status).toBe(101);
    answer.socket!.destroy();
    // An Origin still has to be the page's own (same host as asked for) or listed.
    expect((await upgrade(port, { Host: `agents.example:${port}`, Origin: "https://other.example", Authorization: `Bearer ${token}` })).status).toBe(403);
  });
});
