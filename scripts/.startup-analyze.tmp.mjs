import { rolldown } from "rolldown";
const EXTERNAL = [/^node:/, /^marked/, /^highlight\.js/, /^jiti/, /^@agentclientprotocol\/sdk/, /^@anthropic-ai\/bedrock-sdk/, /^@aws-sdk\/client-bedrock-runtime/];
const b = await rolldown({ input: { main: "dist/cli/main.js" }, platform: "node", external: (id) => EXTERNAL.some((p) => p.test(id)), logLevel: "silent" });
const { output } = await b.generate({ format: "cjs", codeSplitting: { groups: [{ name: "startup", tags: ["$initial"] }] }, minify: true });
const startup = output.find((c) => c.type === "chunk" && c.name === "startup");
const mods = Object.entries(startup.modules).map(([id, m]) => [id.replace(process.cwd() + "/", ""), m.renderedLength]).sort((a, b) => b[1] - a[1]);
const total = mods.reduce((s, [, n]) => s + n, 0);
console.log("total", total, "code", startup.code.length, "modules", mods.length);
const byGroup = {};
for (const [id, n] of mods) { const g = id.startsWith("node_modules") ? id.split("/").slice(0, id.includes("node_modules/@") ? 3 : 2).join("/") : id.split("/").slice(0, 3).join("/"); byGroup[g] = (byGroup[g] ?? 0) + n; }
for (const [g, n] of Object.entries(byGroup).sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log(String(n).padStart(7), g);
if (process.argv[2]) for (const [id, n] of mods.slice(0, +process.argv[2])) console.log(String(n).padStart(7), id);
