/**
 * Writes lib/model-catalog/typed/<provider>.json: the classifier and image models of pi 1.6's
 * provider library (`@earendil-works/pi-ai`, a dev dependency: `dist/providers/data/<id>.json`,
 * entries whose `type` is "classifier" or "image"), mapped onto Atomic's catalog format. Chat
 * models are imported by import-pi-catalog.ts; these never appear in the chat catalog (/model),
 * only in codemode's `models` global.
 *
 *   node scripts/import-pi-typed-models.mjs
 *
 * Run after upgrading the dev dependency; review the diff.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PI_AI = join(ROOT, "node_modules/@earendil-works/pi-ai");
const PI_DATA = join(PI_AI, "dist/providers/data");
const PI_VERSION = JSON.parse(readFileSync(join(PI_AI, "package.json"), "utf8")).version;
const OUT = join(ROOT, "lib/model-catalog/typed");
const CHECKED = new Date().toISOString().slice(0, 10);
/** Providers with no chat model, whose credential the chat catalog does not name (pi's env-api-keys). */
const ENV_KEYS = { typesafe: "TYPESAFE_API_KEY" };
const PROVIDER_NAMES = { typesafe: "TypeSafe" };

for (const name of readdirSync(OUT)) if (name.endsWith(".json")) rmSync(join(OUT, name));
for (const name of readdirSync(PI_DATA).filter((file) => file.endsWith(".json") && !file.startsWith("."))) {
  const provider = name.slice(0, -".json".length);
  const groups = JSON.parse(readFileSync(join(PI_DATA, name), "utf8"));
  const typed = Object.values(groups)
    .flatMap((group) => Object.values(group))
    .filter((model) => model.type === "classifier" || model.type === "image");
  if (typed.length === 0) continue;
  const chatFile = join(ROOT, "lib/model-catalog/data", name);
  let displayName = PROVIDER_NAMES[provider];
  try {
    displayName ??= JSON.parse(readFileSync(chatFile, "utf8")).name;
  } catch {
    // A provider with classifiers only.
  }
  const models = typed
    .sort((a, b) => a.type.localeCompare(b.type) || a.id.localeCompare(b.id))
    .map((model) => ({
      type: model.type,
      id: model.id,
      name: model.name,
      api: model.api,
      baseUrl: model.baseUrl,
      input: model.input,
      ...(model.output ? { output: model.output } : {}),
      cost: { input: model.cost.input, output: model.cost.output, cacheRead: model.cost.cacheRead ?? 0, cacheWrite: model.cost.cacheWrite ?? 0 },
      ...(model.cost.tiers
        ? {
            costTiers: model.cost.tiers.map(({ inputTokensAbove, input, output, cacheRead, cacheWrite }) => ({
              aboveInputTokens: inputTokensAbove,
              cost: { input, output, cacheRead: cacheRead ?? 0, cacheWrite: cacheWrite ?? 0 },
            })),
          }
        : {}),
      ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
      ...(model.compat ? { compat: model.compat } : {}),
      ...(model.inputLimits ? { inputLimits: model.inputLimits } : {}),
    }));
  const file = {
    provider,
    name: displayName ?? provider,
    ...(ENV_KEYS[provider] ? { envKey: ENV_KEYS[provider] } : {}),
    source: { from: `@earendil-works/pi-ai ${PI_VERSION} dist/providers/data/${name}`, checked: CHECKED },
    models,
  };
  writeFileSync(join(OUT, name), `${JSON.stringify(file, null, 2)}\n`);
  console.log(`${provider}: ${models.length}`);
}
