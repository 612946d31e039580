/**
 * What the real corpus (test/helpers/pi-corpus.ts) does, beyond what it registers, side by side
 * with pi 1.6 on the same loopback fake LLM: a prompt template that switches the model, a web
 * fetch against a loopback page, pi's structured-output example ending the run on its
 * terminating tool result, and pi-subagents loaded cold on Node 20.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import type { RecordedRequest } from "./fake-llm/server.js";
import { converse, PI_16, type ConversationRecord } from "./helpers/pi-side-by-side.js";
import { corpusAgentDir, loadedByAtomic, loadedByPi, MODULES, useCorpusAgentDir, usePiNode } from "./helpers/pi-corpus.js";
import { NODE } from "./helpers/node.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const piNode = usePiNode();
const agentDir = useCorpusAgentDir();
const fake = useFakeLlm();

/** Which provider's wire and which model each request of a conversation went to. */
const routes = (record: ConversationRecord) => record.requests.map((request) => `${request.format} ${String(request.body.model)}`);

/**
 * The messages of an OpenAI Chat request but the system prompt; a user message's text as one
 * text part (pi sends parts, Atomic a string: the same to the model).
 */
const conversationSent = (request: RecordedRequest) =>
  (request.body.messages as { role: string; content: unknown }[])
    .filter((message) => message.role !== "system" && message.role !== "developer")
    .map((message) => (typeof message.content === "string" ? { ...message, content: [{ type: "text", text: message.content }] } : message));

describe("a corpus package behaves as under pi 1.6", () => {
  it("pi-prompt-template-model: a template with model: in its frontmatter sends its turn to that model, then restores the previous one", async () => {
    if (!piNode.node22) return console.log(`skipped: ${piNode.skipReason}`);
    const conversation = {
      folder: join(MODULES, "pi-prompt-template-model"),
      // The user's prompts folder (a project's .pi/prompts needs pi's project trust, which RPC mode does not give).
      agentFiles: { "prompts/ask-other.md": "---\ndescription: Ask the other model\nmodel: fake-anthropic/fake-1\n---\nAnswer carefully: $@\n" },
      prompts: ["Say hello.", "/ask-other what is two and two?", "And now?"],
      replies: [{ text: "Hello." }, { text: "Four." }, { text: "Back again." }],
    };
    const pi = await converse("pi", piNode.node22, fake, conversation);
    // Its own agent dir: the template stays out of the one the other tests share.
    const atomic = await converse("atomic", NODE, fake, conversation, corpusAgentDir());
    expect(routes(pi)).toEqual(["openai-chat fake-1", "anthropic fake-1", "openai-chat fake-1"]);
    expect(routes(atomic)).toEqual(routes(pi));
    expect(atomic.userTurns).toEqual(pi.userTurns);
    expect(atomic.userTurns[1]?.at(-1)).toBe("Answer carefully: what is two and two?");
    expect(atomic.notices).toEqual(pi.notices);
    expect(atomic.lastText).toBe(pi.lastText);
  }, 300_000);

  describe("pi-web-access", () => {
    let page: Server;
    let url = "";
    beforeAll(async () => {
      page = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("The kumquat harvest starts in November.\n"));
      await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/harvest.txt`;
    });
    afterAll(() => new Promise<void>((resolve) => page.close(() => resolve())));

    it("fetch_content reads a loopback page its SSRF allow-list admits, as in pi", async () => {
      if (!piNode.node22) return console.log(`skipped: ${piNode.skipReason}`);
      const conversation = {
        folder: join(MODULES, "pi-web-access"),
        // The package reads web-search.json from PI_CODING_AGENT_DIR; loopback is refused unless allowed there.
        agentFiles: { "web-search.json": JSON.stringify({ ssrf: { allowRanges: ["127.0.0.0/8"] } }) },
        prompts: ["When does the kumquat harvest start?"],
        replies: [{ toolCalls: [{ id: "call_1", name: "fetch_content", args: { url, mode: "raw" } }] }, { text: "In November." }],
      };
      const pi = await converse("pi", piNode.node22, fake, conversation);
      // Its own agent dir: the package's config file stays out of the one the other tests share.
      const atomic = await converse("atomic", NODE, fake, conversation, corpusAgentDir());
      expect(pi.toolResults).toHaveLength(1);
      expect(pi.toolResults[0]).toMatchObject({ toolName: "fetch_content", isError: false });
      expect(pi.toolResults[0]!.text).toContain("The kumquat harvest starts in November.");
      expect(atomic.toolResults).toEqual(pi.toolResults);
      expect(routes(atomic)).toEqual(routes(pi));
    }, 300_000);
  });

  it("pi 1.6's structured-output example: the terminating tool result ends the run, with exactly pi's requests", async () => {
    if (!piNode.node22) return console.log(`skipped: ${piNode.skipReason}`);
    const conversation = {
      folder: join(PI_16, "examples/extensions/structured-output.ts"),
      prompts: ["Summarise as structured output."],
      // A second request, which neither agent should make, would get the fake's default answer.
      replies: [{ toolCalls: [{ id: "call_1", name: "structured_output", args: { headline: "Plan", summary: "Two steps.", actionItems: ["one", "two"] } }] }],
    };
    const pi = await converse("pi", piNode.node22, fake, conversation);
    const atomic = await converse("atomic", NODE, fake, conversation, agentDir);
    expect(pi.requests).toHaveLength(1);
    // The system prompts and tool lists are each agent's own; the conversation sent is the same.
    expect(atomic.requests.map(conversationSent)).toEqual(pi.requests.map(conversationSent));
    expect(atomic.toolResults).toEqual(pi.toolResults);
    expect(atomic.toolResults).toEqual([{ toolName: "structured_output", isError: false, text: "Saved structured output: Plan" }]);
    expect(atomic.roles).toEqual(pi.roles.filter((role) => role !== "system"));
  }, 300_000);

  it("pi-subagents loads cold (no transpile or compile cache) on Node 20 with everything pi registers", async () => {
    const node20 = (await nodeRuntime(20)) as string;
    const folder = join(MODULES, "pi-subagents");
    // The CLI under Node 20 whatever Node the suite gives the agent: the launcher drops that Node and execs this one.
    const launcher = ["sh", "-c", 'shift; exec "$0" "$@"', node20];
    const atomic = await loadedByAtomic(corpusAgentDir({ cold: true }), folder, { launcher, env: { ATOMIC_COMPILE_CACHE: "off" } });
    expect(atomic.errors).toEqual([]);
    expect(atomic.tools).toContain("subagent");
    if (!piNode.node22) return console.log(`compared with nothing: ${piNode.skipReason}`);
    const { errors: _, stderr: __, ...ours } = atomic;
    expect(ours).toEqual(await loadedByPi(piNode.node22, folder));
  }, 900_000);
});
