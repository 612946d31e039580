/**
 * The dependency-free Python client in docs/examples runs against the built CLI and the
 * loopback fake LLM (when python3 exists): it streams the answer, waits for `agent_settled`, and
 * splits records on LF only, so a U+2028 inside the answer survives.
 */
import { execFile, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { CLI } from "./helpers/rpc-client.js";
import { tempDir } from "./helpers/temp.js";
import { NODE } from "./helpers/node.js";

const EXAMPLE = resolve(import.meta.dirname, "../docs/examples/atomic_client.py");
const hasPython = spawnSync("python3", ["--version"]).status === 0;
const fake = useFakeLlm();

describe.skipIf(!hasPython)("the Python client example", () => {
  it("streams two prompts' answers and reads the last one back exactly", async () => {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    fake.script({ text: "First answer." }, { text: "Second\u2028answer with a line separator." });
    // Asynchronously: the fake LLM answers from this very process.
    const { stdout: output } = await promisify(execFile)("python3", [EXAMPLE, "one", "two", "--", "--model", "fake-openai/fake-1", "--no-session"], {
      cwd: tempDir("atomic-cwd-"),
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, ATOMIC_CMD: `"${NODE}" "${CLI}"`, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    const lines = output.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual(["First answer.", "Second\u2028answer with a line separator."]);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ text: "Second\u2028answer with a line separator." });
    expect(fake.requests).toHaveLength(2);
  });
});
