/**
 * The shape of one provider's catalog file (`lib/model-catalog/data/<provider>.json`, and the
 * refreshed copies `atomic models update` writes under `<agent dir>/catalog/`): the provider's
 * wire API, base URL, credential and where its data came from, then its models. Shipped files are
 * checked by tests; files read from the agent dir are validated with this schema when used.
 */
import { z } from "zod";
import { THINKING_LEVELS } from "../llm/index.js";
import { idProblem, MAX_MODELS_PER_PROVIDER, nameProblem } from "./entry-checks.js";

/** Provider names as the CLI, auth.json and models.json spell them. */
export const PROVIDER_NAME = /^[a-z0-9][a-z0-9._-]*$/;

function buildSchemas() {
  const price = z.number().min(0);
  const Cost = z.object({ input: price, output: price, cacheRead: price.optional(), cacheWrite: price.optional() });
  const Compat = z.record(z.string(), z.unknown());
  /** A string `problem` finds nothing wrong with. */
  const checked = (problem: (text: string) => string | undefined) =>
    z.string().superRefine((text, ctx) => {
      const why = problem(text);
      if (why) ctx.addIssue({ code: "custom", message: why });
    });
  const Headers = z.record(z.string(), z.string());
  const Model = z.object({
    id: checked(idProblem),
    name: checked(nameProblem),
    /** Only where it differs from the provider's. */
    api: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    reasoning: z.boolean(),
    input: z.array(z.enum(["text", "image"])).min(1),
    cost: Cost,
    costTiers: z.array(z.object({ aboveInputTokens: z.number().int().positive(), cost: Cost })).optional(),
    contextWindow: z.number().int().positive(),
    maxTokens: z.number().int().positive(),
    thinkingLevels: z.array(z.enum(THINKING_LEVELS)).min(1).optional(),
    /** Headers the model's requests carry (pi's: a subscription API's client headers). */
    headers: Headers.optional(),
    compat: Compat.optional(),
    retiresOn: z.iso.date().optional(),
  });
  const File = z.object({
    provider: z.string().regex(PROVIDER_NAME),
    name: z.string().min(1),
    api: z.string().min(1),
    /** May hold `{placeholders}` an adapter fills from the environment (Azure's resource, Vertex's location). */
    baseUrl: z.string().min(1),
    /** The environment variable holding the key (pi's name). */
    envKey: z.string().min(1).optional(),
    /** Variables tried after `envKey`, in order (pi's fallbacks). */
    altEnvKeys: z.array(z.string().min(1)).min(1).optional(),
    /**
     * pi signs in to this provider with OAuth (a subscription, or its own account login) and keeps
     * the tokens in auth.json; Atomic's `atomic login` reads and refreshes those entries.
     */
    oauth: z.literal(true).optional(),
    /** Credentials found in the environment without a key: any group whose variables are all set. */
    ambientAuth: z.array(z.array(z.string().min(1)).min(1)).optional(),
    /** A local server: no key needed, models listed by the server itself (`GET <baseUrl>/models`). */
    local: z.object({ baseUrlEnv: z.string().min(1) }).optional(),
    /** The provider's id in the public models.dev catalog, for `atomic models update`. */
    modelsDev: z.string().min(1).optional(),
    /** Only the catalog's models whose id matches this pattern (Bedrock: Claude only). */
    modelsDevFilter: z.string().min(1).optional(),
    docs: z.url().optional(),
    source: z.object({ from: z.string().min(1), checked: z.iso.date() }),
    /** Applied under each model's own `compat`. */
    compat: Compat.optional(),
    /** Sent with every model's requests, under the model's own `headers`. */
    headers: Headers.optional(),
    models: z.array(Model).max(MAX_MODELS_PER_PROVIDER),
  });
  return { File, Model };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;
export const catalogSchemas = () => (schemas ??= buildSchemas());

export type CatalogFile = z.output<ReturnType<typeof buildSchemas>["File"]>;
export type CatalogEntry = z.output<ReturnType<typeof buildSchemas>["Model"]>;
/** A provider file without its models: what the registry needs before any model is asked for. */
export type CatalogProvider = Omit<CatalogFile, "models">;
