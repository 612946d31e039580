/**
 * `atomic models update --from <url>` against a hostile catalog: 100,001 (or 2,001) junk models, ids that
 * climb out of a folder, names with terminal escapes, a body that never ends. Each is refused
 * with a clear error that prints nothing raw, and nothing changes (no file written, the one
 * refreshed before kept byte for byte). A huge refreshed file left in the agent dir is not read.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers/rpc-client.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined, GROQ_API_KEY: undefined };
const ESC = "\u001b";

const model = (id: string, name = "A model") => ({
  id,
  name,
  tool_call: true,
  modalities: { input: ["text"], output: ["text"] },
  cost: { input: 0.1, output: 0.2 },
  limit: { context: 65536, output: 8192 },
});
const catalogOf = (models: ReturnType<typeof model>[]) => ({ groq: { id: "groq", models: Object.fromEntries(models.map((m) => [m.id, m])) } });

const BODIES: Record<string, () => string> = {
  "/good.json": () => JSON.stringify(catalogOf([model("groq/fine-8b", "Fine 8B")])),
  "/flood.json": () => JSON.stringify(catalogOf(Array.from({ length: 100_001 }, (_, i) => model(`junk-${i}`)))),
  "/many.json": () => JSON.stringify(catalogOf(Array.from({ length: 2_001 }, (_, i) => model(`junk-${i}`)))),
  "/climb.json": () => JSON.stringify(catalogOf([model("groq/fine-8b"), model("../../../evil"), model("/etc/passwd"), model("a\\b")])),
  "/escapes.json": () => JSON.stringify(catalogOf([model("groq/title", `${ESC}]0;pwned${"\u0007"}${ESC}[2J Title`), model("groq/bidi", "abc\u202Etxt.exe")])),
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/endless.json") {
      // Chunked, no length: 1 MiB at a time for as long as it is read.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, " ");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      res.write("{");
      pump();
      return;
    }
    const body = BODIES[req.url ?? ""];
    if (body) res.writeHead(200, { "content-type": "application/json" }).end(body());
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function folders() {
  return { agentDir: tempDir("atomic-agent-"), cwd: tempDir("atomic-cwd-") };
}

describe("a junk catalog is refused and changes nothing", () => {
  it("100,001 models, climbing ids, escapes in names, an endless body: each refused with a clear error; the file refreshed before stays", async () => {
    const { agentDir, cwd } = folders();
    const update = (path: string) => runCli(["models", "update", "groq", "--from", `${base}${path}`], { agentDir, cwd, env: NO_KEYS, timeoutMs: 60_000 });
    const good = await update("/good.json");
    expect(good.code).toBe(0);
    const file = join(agentDir, "catalog", "groq.json");
    const before = readFileSync(file, "utf8");

    // The 100,001 models (a 22 MB answer): over the size any catalog may have.
    const flood = await update("/flood.json");
    expect(flood.code).toBe(1);
    expect(flood.stderr).toBe(`Cannot read the catalog at ${base}/flood.json: the answer is larger than the 16777216 bytes accepted. Nothing changed: the catalog in use stays.\n`);
    const many = await update("/many.json");
    expect(many.code).toBe(1);
    expect(many.stderr).toBe(
      `Refused the catalog at ${base}/many.json:\n  groq: it lists 2001 models, more than the 2000 a provider may have\nNothing changed: the catalog in use stays.\n`,
    );

    const climb = await update("/climb.json");
    expect(climb.code).toBe(1);
    expect(climb.stderr).toContain('groq: model id "../../../evil": it has an empty, "." or ".." path segment');
    expect(climb.stderr).toContain('groq: model id "/etc/passwd": it is an absolute path');
    expect(climb.stderr).toContain('groq: model id "a\\\\b": it holds characters other than');

    const escapes = await update("/escapes.json");
    expect(escapes.code).toBe(1);
    expect(escapes.stderr).toContain('groq: model "groq/title" has the name "\\u{1b}]0;pwned\\u{7}\\u{1b}[2J Title": it holds control, format or escape characters');
    expect(escapes.stderr).toContain('has the name "abc\\u{202e}txt.exe"');
    expect(escapes.stderr).not.toContain(ESC);
    expect(escapes.stderr).not.toContain("\u202E");

    const endless = await update("/endless.json");
    expect(endless.code).toBe(1);
    expect(endless.stderr).toMatch(/^Cannot read the catalog at .*\/endless\.json: the answer is larger than the 16777216 bytes accepted\. Nothing changed/);

    expect(readFileSync(file, "utf8")).toBe(before);
    const listed = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(listed.stdout).toMatch(/^groq +groq\/fine-8b /m);
  }, 120_000);

  it("refuses before writing anything: no catalog folder appears", async () => {
    const { agentDir, cwd } = folders();
    const run = await runCli(["models", "update", "groq", "--from", `${base}/climb.json`], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(existsSync(join(agentDir, "catalog"))).toBe(false);
  });

  it("a refreshed file too big to be a catalog, or holding a climbing id, is not used: the shipped data is", async () => {
    const { agentDir, cwd } = folders();
    mkdirSync(join(agentDir, "catalog"));
    const shipped = (await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS })).stdout;
    const file = join(agentDir, "catalog", "groq.json");
    writeFileSync(file, " ".repeat(5 * 1024 * 1024));
    const big = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(big.stderr).toContain(`${file} is 5242880 bytes, more than the 4194304 a catalog may take (shipped data used)`);
    expect(big.stdout).toBe(shipped);
    const valid = JSON.parse(readFileSync(join(import.meta.dirname, "../lib/model-catalog/data/groq.json"), "utf8"));
    valid.models.push({ ...valid.models[0], id: "../../evil" });
    writeFileSync(file, JSON.stringify(valid));
    const climbing = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(climbing.stderr).toMatch(/Invalid catalog file .*groq\.json: .*it has an empty, "\." or "\.\." path segment.* \(shipped data used\)/);
    expect(climbing.stdout).toBe(shipped);
  });
});
