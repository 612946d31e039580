/**
 * `atomic --list-models` against pi 1.6's catalog (`@earendil-works/pi-ai` 1.6.0): every chat
 * model pi ships is a row with pi's provider, id, context, max-out, thinking and images columns,
 * formatted as pi's `--list-models` formats them (issue 36).
 */
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp.js";

const PI_DATA = new URL("../node_modules/@earendil-works/pi-ai/dist/providers/data/", import.meta.url);
const CLOSED = "http://127.0.0.1:9/v1";

/** pi's formatTokenCount (pi-coding-agent dist/cli/list-models.js). */
function piTokens(count: number): string {
  if (count >= 1_000_000) return count % 1_000_000 === 0 ? `${count / 1_000_000}M` : `${(count / 1_000_000).toFixed(1)}M`;
  if (count >= 1_000) return count % 1_000 === 0 ? `${count / 1_000}K` : `${(count / 1_000).toFixed(1)}K`;
  return String(count);
}

describe("--list-models and pi's catalog", () => {
  it("lists every pi chat model with pi's columns", async () => {
    const agentDir = tempDir();
    const env = { OLLAMA_BASE_URL: CLOSED, LLAMA_CPP_BASE_URL: CLOSED, VLLM_BASE_URL: CLOSED, LMSTUDIO_BASE_URL: CLOSED };
    const run = await runCli(["--list-models"], { cwd: agentDir, agentDir, env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const rows = new Map(
      run.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(/\s{2,}/))
        .map((cells) => [`${cells[0]}/${cells[1]}`, cells.slice(0, 6)]),
    );
    let expected = 0;
    for (const name of readdirSync(PI_DATA).filter((file) => file.endsWith(".json") && !file.startsWith("."))) {
      const groups = JSON.parse(readFileSync(new URL(name, PI_DATA), "utf8")) as Record<string, Record<string, Record<string, any>>>;
      for (const model of Object.values(groups).flatMap((group) => Object.values(group))) {
        if (model.type !== "chat") continue;
        expected++;
        const ref = `${model.provider}/${model.id}`;
        expect(rows.get(ref), ref).toEqual([
          model.provider,
          model.id,
          piTokens(model.contextWindow),
          piTokens(model.maxTokens),
          model.reasoning ? "yes" : "no",
          model.input.includes("image") ? "yes" : "no",
        ]);
      }
    }
    expect(expected).toBe(1698);
    // The offline replay model is Atomic's own; nothing else is listed.
    expect([...rows.keys()].filter((ref) => !ref.startsWith("replay/"))).toHaveLength(1698);
  });
});
