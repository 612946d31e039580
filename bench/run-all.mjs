// Runs every benchmark against the built CLI (npm run build first) and prints one JSON object.
import { benchBash } from "./bash.mjs";
import { benchCompaction } from "./compaction.mjs";
import { benchExtensions } from "./extensions.mjs";
import { benchExportHtml } from "./export-html.mjs";
import { benchFirstPrompt } from "./first-prompt.mjs";
import { benchFirstToken } from "./first-token.mjs";
import { benchGrep } from "./grep.mjs";
import { benchListSessions } from "./list-sessions.mjs";
import { benchManyAgents } from "./many-agents.mjs";
import { benchMcpCalls, benchMcpLoop, benchMcpStartup } from "./mcp.mjs";
import { benchLongAnswer } from "./long-answer.mjs";
import { benchSandbox } from "./sandbox.mjs";
import { benchServe } from "./serve.mjs";
import { benchServeWs } from "./serve-ws.mjs";
import { benchSessionLoad } from "./session-load.mjs";
import { benchSkills } from "./skills.mjs";
import { benchStartup } from "./startup.mjs";
import { benchStartupModes } from "./startup-modes.mjs";
import { benchStartupNodes } from "./startup-nodes.mjs";
import { benchStream } from "./stream.mjs";
import { benchToolArgs } from "./tool-args.mjs";

const results = {
  node: process.version,
  startup: await benchStartup(21),
  startupNodes: await benchStartupNodes({ runs: 11 }),
  startupModes: await benchStartupModes(11),
  firstToken: await benchFirstToken({ runs: 11 }),
  firstPrompt: await benchFirstPrompt({ runs: 7 }),
  stream: await benchStream({ runs: 5 }),
  streamDelta: await benchStream({ runs: 5, messageUpdates: "delta" }),
  longAnswer: await benchLongAnswer({ runs: 5 }),
  longAnswerDelta: await benchLongAnswer({ runs: 5, messageUpdates: "delta" }),
  sessionLoad: await benchSessionLoad({ runs: 3 }),
  listSessions: await benchListSessions({ runs: 3 }),
  toolArgs: benchToolArgs(),
  bash: await benchBash({ runs: 3 }),
  sandbox: await benchSandbox({ calls: 40 }),
  skills: await benchSkills(),
  compaction: await benchCompaction({ runs: 5 }),
  extensions: await benchExtensions(11),
  exportHtml: await benchExportHtml({ runs: 3 }),
  grep: await benchGrep({ runs: 5 }),
  manyAgents: await benchManyAgents({ agents: 100, processes: 100 }),
  serveWs: await benchServeWs(),
  mcpStartup: await benchMcpStartup(21),
  mcpCalls: await benchMcpCalls(),
  mcpLoop: await benchMcpLoop(),
  serve: await benchServe(),
};
console.log(JSON.stringify(results, null, 2));
