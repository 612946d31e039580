/**
 * What the model is told about codemode: how scripts run, their globals, and the tools they may
 * call, grouped by namespace within a token budget (`codemode.inlineBudget`). Which tools are
 * listed follows `codemode.mode`: with `on` the ones the model is not offered directly (`codemode`
 * exposure), with `only` every callable one but `deferred` tools, which are never listed (so the
 * description does not change while MCP servers connect; scripts find them with searchTools()).
 * Also the note `on` adds to each declared tool: how a script calls it and what it resolves to.
 */
import { CODEMODE_TOOL, type CatalogTool } from "./catalog.js";
import { outputType, resolveRef, toIdentifier } from "./declarations.js";

export type CodemodeMode = "on" | "only";
export const DEFAULT_INLINE_BUDGET = 3000;
const CHARS_PER_TOKEN = 4;

const INTRO = `Run JavaScript that calls other tools; only what the script outputs reaches you. The input is plain JavaScript (not JSON, no code fence), run as the body of an async function in a QuickJS sandbox, so top-level \`await\` and \`return\` work. There is no Node, file system, network or timer: tools are the only way out.
- \`await tools.<name>({ ...args })\` resolves to the tool's text, or to an object when its declaration says so (then also on failure, when the tool returned one: check its fields); a failed call rejects with an Error. Calls still running when the script ends are cancelled.
- An optional first line sets limits: \`// @options: {"max_output_tokens": 10000, "timeout_ms": 60000}\``;

const GLOBALS = `Globals:
- \`text(value)\`, \`image(dataUrlOrImageBlock)\`, \`console.log(...)\` and a top-level \`return\` add output; \`exit()\` ends the script. Several text items each open with a \`==> text N/M <==\` line; console lines come last, in one \`<console_output>\` block. \`image()\` also saves the image to a temp file whose path the result names.
- \`store(key, value)\` and \`load(key)\` keep small JSON values from one codemode call to the next.
- \`ALL_TOOLS\`, \`await searchTools(query, { limit?, namespace? })\`, \`await describeTool(name)\`, \`await describeNamespace(name)\` find tools not listed here (MCP tools among them).
- \`models\`: the model catalog, classifiers and image generation: \`await models.getAvailableOfType("classifier" | "image" | "chat", provider?)\`, \`await models.getModelOfType(type, provider, id)\`, \`await models.classify(model, { state, images?, questions }, options?)\`, \`await models.generateImages(model, { input }, options?)\` (results carry \`stopReason\` and \`errorMessage\` instead of throwing; chat models cannot be run from scripts). \`options\` (JSON data, no functions): \`timeoutMs\`, \`maxRetries\`, \`maxRetryDelayMs\`, \`headers\`, \`apiKey\`, \`identity\`, and \`temperature\` (classify) or \`metadata\` (images).`;

/** The tools the description lists, by mode. */
export function listedTools(tools: readonly CatalogTool[], mode: CodemodeMode): CatalogTool[] {
  return tools.filter((tool) => tool.exposure !== "deferred" && (mode === "only" || tool.exposure !== "direct"));
}

export function codemodeDescription(listed: readonly CatalogTool[], budget: number): string {
  const parts = [INTRO, GLOBALS];
  if (listed.length === 0) return parts.join("\n\n");
  const groups = new Map<string, { title?: string; about?: string; entries: { name: string; section: string; cost: number }[] }>();
  for (const tool of listed) {
    const key = tool.namespace ? `ns:${tool.namespace.name}` : "";
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ...(tool.namespace ? { title: tool.namespace.name, about: tool.namespace.description } : {}), entries: [] }));
    const id = toIdentifier(tool.name);
    const section = `### \`${id}\`${id === tool.name ? "" : ` (\`${tool.name}\`)`}\n${tool.sample.trim()}`;
    group.entries.push({ name: tool.name, section, cost: Math.ceil(section.length / CHARS_PER_TOKEN) });
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))).map(([, group]) => group);
  const shown = fitBudget(
    ordered.map((group) => group.entries),
    budget,
  );
  const sections = ["Tools scripts can call:"];
  for (const group of ordered) {
    const visible = group.entries.filter((entry) => shown.has(entry.name));
    if (group.title !== undefined) {
      const missing = visible.length === group.entries.length ? "" : visible.length === 0 ? " (tools not listed)" : " (some tools not listed)";
      sections.push(`## ${group.title}${missing}${group.about?.trim() ? `\n${group.about.trim()}` : ""}`);
    }
    for (const entry of visible) sections.push(entry.section);
  }
  parts.push(sections.join("\n\n"));
  return parts.join("\n\n");
}

/**
 * Which sections fit: round by round, each group (tools without a namespace first) places its
 * cheapest remaining one, and a group whose next one does not fit stops while the others go on,
 * so every namespace shows something before any shows everything.
 */
function fitBudget(groups: { name: string; cost: number }[][], budget: number): Set<string> {
  const queues = groups.map((entries) => [...entries].sort((a, b) => a.cost - b.cost)).filter((queue) => queue.length > 0);
  const shown = new Set<string>();
  let left = budget;
  let open = queues;
  while (open.length > 0) {
    open = open.filter((queue) => {
      const next = queue[0]!;
      if (next.cost > left) return false;
      left -= next.cost;
      shown.add(next.name);
      queue.shift();
      return queue.length > 0;
    });
  }
  return shown;
}

/** `on` mode: a declared tool's description, with how a script calls it. */
export function scriptCallNote(tool: CatalogTool): string {
  return `Codemode: \`tools.${toIdentifier(tool.name)}(args)\` resolves to ${resolvesTo(tool)}.`;
}

function resolvesTo(tool: CatalogTool): string {
  if (tool.outputSchema === undefined) return "a string";
  const fields = fieldNames(tool.outputSchema, tool.outputSchema, 1);
  if (fields) return `\`${fields}\``;
  const type = outputType(tool.outputSchema);
  return type.includes("\n") ? `a value; \`await describeTool(${JSON.stringify(tool.name)})\` shows its type` : `\`${type}\``;
}

/** `{ output, exit_code, full_output_path? }`, a level of nested objects deep. */
function fieldNames(schema: unknown, root: unknown, depth: number): string | undefined {
  let node = schema as Record<string, unknown> | undefined;
  for (let hops = 0; typeof node?.$ref === "string" && hops < 8; hops++) node = resolveRef(node.$ref as string, root) as Record<string, unknown> | undefined;
  if (typeof node !== "object" || node === null || node.type !== "object" || typeof node.properties !== "object" || node.properties === null) return undefined;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const fields = Object.entries(node.properties as Record<string, unknown>).map(([name, field]) => {
    const constant = (field as { const?: unknown } | undefined)?.const;
    const nested = constant !== undefined ? JSON.stringify(constant) : depth > 0 ? fieldNames(field, root, depth - 1) : undefined;
    return `${name}${required.has(name) ? "" : "?"}${nested ? `: ${nested}` : ""}`;
  });
  return `{ ${fields.join(", ")} }`;
}

/** The request's tools as codemode presents them while it is offered (see the module comment). */
export function presentTools<T extends { name: string; description: string }>(declared: readonly T[], callable: ReadonlyMap<string, CatalogTool>, mode: CodemodeMode): T[] {
  if (!declared.some((tool) => tool.name === CODEMODE_TOOL)) return [...declared];
  if (mode === "only") return declared.filter((tool) => tool.name === CODEMODE_TOOL || callable.get(tool.name)?.exposure !== "direct");
  return declared.map((tool) => {
    const entry = callable.get(tool.name);
    return entry ? { ...tool, description: `${tool.description.trim()}\n\n${scriptCallNote(entry)}` } : tool;
  });
}

/**
 * The system prompt without the `Available tools:` lines of `hidden` tools (the agent's tool list,
 * `- name: description`): `only` mode does not declare them, so the prompt does not name them.
 */
export function withoutListedTools(prompt: string, hidden: readonly string[]): string {
  if (hidden.length === 0) return prompt;
  const start = prompt.indexOf("Available tools:\n");
  if (start < 0) return prompt;
  const from = start + "Available tools:\n".length;
  const end = prompt.indexOf("\n\n", from);
  const block = prompt.slice(from, end < 0 ? undefined : end);
  const names = new Set(hidden);
  const kept = block.split("\n").filter((line) => {
    const match = /^- ([^:]+): /.exec(line);
    return !match || !names.has(match[1]!);
  });
  return prompt.slice(0, from) + kept.join("\n") + (end < 0 ? "" : prompt.slice(end));
}
