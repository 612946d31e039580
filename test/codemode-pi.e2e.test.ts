/**
 * The same codemode conversation through pi 1.6 (its RPC mode, in a Node 22 child) and through
 * Atomic, against the same fake LLM: every script of pi's docs/codemode.md that needs no model
 * catalog (its options line, output layout, store, tool calls, failures) gives the same tool
 * result text and details in both, up to the wall time, call durations and temp file names; so do
 * the doc's MCP examples (docs/codemode.md and docs/mcp.md: `mcp__dev-radius` named
 * `tools.mcp__dev_radius__*`, describeNamespace's four spellings, a searchTools namespace, the
 * whole CallToolResult, `image(result.content[0])`) against a server with pi's default exposure.
 * The `models` examples (classify, generateImages) are replayed side by side in
 * codemode-models-pi.e2e.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import { PROBE } from "./helpers/mcp.js";
import { NODE } from "./helpers/node.js";
import { converse, type ConversationRecord } from "./helpers/pi-side-by-side.js";
import { tempDir } from "./helpers/rpc-client.js";
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
}, 300_000);

/** A tool_call handler that blocks one command, as a permission gate would. */
const GUARD = `export default function (pi) {
  pi.on("tool_call", async (event) => {
    if (event.toolName === "bash" && String(event.input.command).includes("rm -rf")) return { block: true, reason: "Blocked: destructive command" };
  });
}
`;

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The scripts, in order; each is one codemode call of the conversation. */
const SCRIPTS = [
  // Output layout: text items numbered, return added like text(), console lines last.
  `await tools.write({ path: "notes.txt", content: "alpha\\nbeta\\ngamma\\n" });
text("first");
console.log("a log line", 42, { x: 1 });
text({ structured: [1, 2] });
console.warn("a warning");
return "the end";`,
  // One text item: no numbering.
  `const notes = await tools.read({ path: "notes.txt" });
return notes.split("\\n").filter(Boolean).length;`,
  // Parallel calls; a blocked one rejects with the handler's reason; the others keep their results.
  `const results = await Promise.allSettled([
  tools.read({ path: "notes.txt" }),
  tools.bash({ command: "rm -rf /tmp/nothing-here" }),
  tools.bash({ command: "rm -rf /tmp/nothing-there-either" }),
]);
return results.map((r) => r.status === "fulfilled" ? "ok" : r.reason.message);`,
  // The options line and the token budget: head and tail kept, the full text in a temp file.
  `// @options: {"max_output_tokens": 20}
for (let i = 0; i < 40; i++) text("line " + i);`,
  // store() across calls (kept when the script succeeds), exit() ends early.
  `store("cursor", { page: 2 });
store("gone", 1);
store("gone", undefined);
text(JSON.stringify(load("cursor")));
exit();
text("never");`,
  `return [load("cursor"), load("gone")];`,
  // A thrown error keeps the partial output, the stack, and the calls already made.
  `text("before");
await tools.read({ path: "notes.txt" });
function inner() { throw new TypeError("bad thing"); }
inner();`,
  // An options line anywhere but the first line fails the call before the script runs.
  `text(1);
// @options: {"timeout_ms": 100}`,
  // A promise nothing can settle fails at once.
  `text("waiting");
await new Promise(() => {});`,
  // A syntax error.
  `const x = ;`,
  // An image: saved to a temp file named before it.
  `image("data:image/png;base64,${PNG}");
image({ type: "image", data: "${PNG}", mimeType: "image/png" });
text("shown twice");`,
  // Deep recursion is a catchable RangeError.
  `function down(n) { return down(n + 1) + 1; }
try { down(0); } catch (error) { return error.name + ": " + error.message; }`,
  // A value that is not JSON, and an unknown tool name.
  `text(undefined); text(null); text(NaN); console.log([1, "two"], undefined);
return typeof tools.raed;`,
  // bash resolves to its structured result, also for a non-zero exit code.
  `const ok = await tools.bash({ command: "printf 'one\\ntwo'" });
const failed = await tools.bash({ command: "echo oops; exit 3" });
return [ok.output, ok.truncated, ok.exit_code, failed.output, failed.exit_code, typeof failed.wall_time_seconds, "full_output_path" in ok];`,
  // What scripts can call (searchTools ranks as each agent's tool_search does: the best match agrees).
  `return ALL_TOOLS.map((tool) => tool.name);`,
  `const found = await searchTools("read file contents", { limit: 2 });
return [found[0].name, typeof (await describeTool("read")), await describeNamespace("nothing")];`,
];

const TEMP_FILE = /\/[^\s()"]*?(pi|atomic)-codemode[^\s()"]*/g;

/** Wall times, call durations and temp file names differ by run; everything else must not. */
function normalized(record: ConversationRecord): { toolName: string; isError: boolean; text: string; details: unknown }[] {
  return record.toolResults.flatMap((result, i) =>
    result.toolName === "codemode"
      ? [
          {
            ...result,
            text: result.text.replace(/Wall time \d+\.\d seconds/g, "Wall time X seconds").replace(TEMP_FILE, "<temp file>"),
            details: JSON.parse(
              JSON.stringify(record.toolDetails[i] ?? null)
                .replace(/"durationMs":[\d.e+-]+/g, '"durationMs":"<ms>"')
                .replace(TEMP_FILE, "<temp file>"),
            ),
          },
        ]
      : [],
  );
}

/** Every nested call's durationMs, as the agent reported it. */
function durations(record: ConversationRecord): number[] {
  return [...JSON.stringify(record.toolDetails).matchAll(/"durationMs":([\d.e+-]+)/g)].map((match) => Number(match[1]));
}

/** An MCP server as pi 1.6's mcp.json has it, with no exposure: pi's default (codemode) applies in both. */
const DEV_RADIUS = { "dev-radius": { command: process.execPath, args: [PROBE], description: "Radius of the dev fleet" } };

/** pi docs/codemode.md and docs/mcp.md on scripts and MCP servers: naming, namespaces, results, images. */
const MCP_SCRIPTS = [
  // The doc's options line, and \`mcp__dev-radius__<tool>\` called as \`tools.mcp__dev_radius__<tool>\`.
  `// @options: {"max_output_tokens": 2000, "timeout_ms": 60000}
const echoed = await tools.mcp__dev_radius__echo({ text: "radius" });
return echoed.content[0].text;`,
  // describeNamespace() takes the server's name in its four spellings.
  `const spellings = ["mcp__dev-radius", "mcp__dev_radius", "dev-radius", "dev_radius"];
const found = await Promise.all(spellings.map((name) => describeNamespace(name)));
return found.map((namespace) => namespace && [namespace.name, namespace.description, namespace.instructions, namespace.tools.includes("mcp__dev_radius__echo")]);`,
  // searchTools() with a namespace.
  `const found = await searchTools("echo the text back", { namespace: "dev-radius" });
return found[0].name;`,
  // The whole CallToolResult, isError included (it resolves), and image(result.content[0]).
  `const failed = await tools.mcp__dev_radius__fail({});
const picture = await tools.mcp__dev_radius__image({});
image(picture.content.find((block) => block.type === "image"));
return { failed, blocks: picture.content.map((block) => block.type) };`,
];

describe("codemode: a conversation recorded through pi 1.6 gives the same tool results in Atomic", () => {
  it("pi docs/codemode.md's scripts: output layout, options, store, tool calls, failures", async () => {
    if (!node22) return console.log(`skipped: ${skipReason}`);
    const folder = tempDir("codemode-guard-");
    writeFileSync(join(folder, "guard.js"), GUARD);
    const conversation = {
      folder: join(folder, "guard.js"),
      args: ["--tools", "+codemode"],
      prompts: ["Run the scripts."],
      replies: [...SCRIPTS.map((code, index) => ({ toolCalls: [{ id: `call_${index + 1}`, name: "codemode", args: { code } }] })), { text: "All done." }],
    };
    const pi = await converse("pi", node22, fake, conversation);
    const atomic = await converse("atomic", NODE, fake, conversation);
    const expected = normalized(pi);
    expect(expected).toHaveLength(SCRIPTS.length);
    const got = normalized(atomic);
    expect(got.map((result, i) => ({ script: i + 1, ...result }))).toEqual(expected.map((result, i) => ({ script: i + 1, ...result })));
    expect(atomic.lastText).toBe(pi.lastText);
    // pi keeps each nested call's duration as measured, unrounded.
    expect(durations(pi).some((ms) => !Number.isInteger(ms))).toBe(true);
    expect(durations(atomic).some((ms) => !Number.isInteger(ms))).toBe(true);
  }, 240_000);

  it("an MCP server with pi's default exposure: codemode on by itself, the tools reached from scripts only, the same results", async () => {
    if (!node22) return console.log(`skipped: ${skipReason}`);
    const folder = tempDir("codemode-guard-");
    writeFileSync(join(folder, "guard.js"), GUARD);
    const conversation = {
      folder: join(folder, "guard.js"),
      mcpServers: DEV_RADIUS,
      prompts: ["Use the dev-radius server."],
      replies: [...MCP_SCRIPTS.map((code, index) => ({ toolCalls: [{ id: `call_${index + 1}`, name: "codemode", args: { code } }] })), { text: "All done." }],
    };
    const pi = await converse("pi", node22, fake, conversation);
    const atomic = await converse("atomic", NODE, fake, conversation);
    for (const agent of [pi, atomic]) {
      expect(agent.declared[0]).toContain("codemode");
      expect(agent.declared[0]!.filter((name) => name.startsWith("mcp__"))).toEqual([]);
    }
    const expected = normalized(pi);
    expect(expected).toHaveLength(MCP_SCRIPTS.length);
    expect(normalized(atomic).map((result, i) => ({ script: i + 1, ...result }))).toEqual(expected.map((result, i) => ({ script: i + 1, ...result })));
  }, 240_000);
});
