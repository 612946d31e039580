import { rolldown } from "rolldown";
import { resolve, relative } from "node:path";
const cli = await rolldown({ input: { main: "dist/cli/main.js" }, platform: "node", external: (id) => [/^node:/, /^marked/, /^highlight\.js/, /^jiti/, /^@agentclientprotocol\/sdk/, /^@anthropic-ai\/bedrock-sdk/, /^@aws-sdk\/client-bedrock-runtime/].some((p) => p.test(id)), logLevel: "silent" });
const { output } = await cli.generate({ format: "cjs", codeSplitting: { groups: [{ name: "startup", tags: ["$initial"] }] }, minify: true });
const startup = output.find((f) => f.type === "chunk" && f.name === "startup") ?? output.filter(f=>f.type==="chunk").sort((a,b)=>b.code.length-a.code.length)[0];
console.log("chunk", startup.fileName, startup.code.length);
const groups = {};
const detail = process.argv[2];
for (const [id, m] of Object.entries(startup.modules)) {
  const rel = relative(resolve("."), id);
  let key = rel.startsWith("node_modules/") ? rel.split("/").slice(0, rel.split("/")[1].startsWith("@") ? 3 : 2).join("/") : rel.split("/").slice(0, 3).join("/");
  if (detail && key.includes(detail)) key = rel;
  groups[key] = (groups[key] ?? 0) + m.renderedLength;
}
for (const [k, v] of Object.entries(groups).sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 60))) console.log(String(v).padStart(8), k);
