/**
 * In-process kernel for provider tests: boots `agent` + `models` + the given provider plugins
 * against a temp agent dir, and helpers to call a stream hook and collect its events.
 */
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { tempDir as makeTempDir } from "../helpers/temp.js";
import agentPlugin from "../../plugins/agent/index.js";
import modelsPlugin from "../../plugins/models/index.js";
import settingsPlugin from "../../plugins/settings/index.js";
import anthropicPlugin from "../../plugins/provider-anthropic/index.js";
import catalogPlugin from "../../plugins/provider-catalog/index.js";
import googlePlugin from "../../plugins/provider-google/index.js";
import openaiPlugin from "../../plugins/provider-openai/index.js";
import bedrockPlugin from "../../plugins/provider-bedrock/index.js";
import piMessagesPlugin from "../../plugins/provider-pi-messages/index.js";
import { expandModels, providerRegistration, readDataFiles } from "../../lib/model-catalog/index.js";
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import type { Kernel } from "../../kernel/kernel.js";
import { createHost } from "../../host/index.js";
import { silentLogger, type CliOptions, type Logger, type PluginDefinition, type Settings } from "../../kernel/index.js";
import type { AssistantMessageEvent, LlmMessage, Model, StreamRequest, ThinkingLevel, ToolSpec } from "../../lib/llm/index.js";

export interface TestKernelOptions {
  agentDir?: string;
  plugins?: PluginDefinition[];
  cli?: Partial<CliOptions>;
  settings?: Settings;
  env?: NodeJS.ProcessEnv;
  log?: Logger;
}

/** The repository root: where bundled assets (replay cassettes) live. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A temp folder removed after the test file (see ../helpers/temp.ts). */
export async function tempDir(prefix = "atomic-test-"): Promise<string> {
  return makeTempDir(prefix);
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** The built-in provider plugins, in the CLI's order: the catalog (every built-in provider's models) and the adapters. */
export const VENDOR_PLUGINS: PluginDefinition[] = [catalogPlugin, anthropicPlugin, openaiPlugin, googlePlugin, bedrockPlugin, piMessagesPlugin];

/** Every built-in provider of the shipped catalog, models built, for registry-level tests that boot no kernel. */
export async function builtinProviders(): Promise<ProviderRegistration[]> {
  return (await readDataFiles()).map((file) => ({ ...providerRegistration(file), models: expandModels(file, file.models) }));
}

/** A kernel booted by the host (as every entry point does) with settings + agent + models + `plugins`. */
export async function bootKernel(options: TestKernelOptions = {}): Promise<Kernel> {
  const agentDir = options.agentDir ?? (await tempDir());
  const host = await createHost({
    cwd: agentDir,
    agentDir,
    env: options.env ?? {},
    plugins: [settingsPlugin, agentPlugin, modelsPlugin, ...(options.plugins ?? [])],
    ...(options.cli ? { cli: options.cli } : {}),
    ...(options.settings ? { settings: options.settings as Record<string, unknown> } : {}),
    userPlugins: false,
    log: options.log ?? silentLogger,
    installDir: REPO_ROOT,
  });
  return host.kernel;
}

export interface RequestOptions {
  messages?: LlmMessage[];
  prompt?: string;
  systemPrompt?: string;
  tools?: ToolSpec[];
  thinkingLevel?: ThinkingLevel;
  signal?: AbortSignal;
  maxTokens?: number;
}

export function streamRequest(model: Model, options: RequestOptions = {}): StreamRequest {
  const messages = options.messages ?? [{ role: "user", content: options.prompt ?? "Hello", timestamp: Date.now() }];
  return {
    model,
    context: { systemPrompt: options.systemPrompt ?? "You are a test.", messages, tools: options.tools ?? [] },
    options: {
      signal: options.signal ?? new AbortController().signal,
      thinkingLevel: options.thinkingLevel ?? "off",
      callIndex: 1,
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    },
  };
}

export interface Collected {
  events: AssistantMessageEvent[];
  /** JSON of each event's partial at the moment it was received (what a transport would send). */
  snapshots: string[];
  final: AssistantMessageEvent;
}

/** Calls the stream hook for `request.model.api` and drains it. */
export async function runStream(kernel: Kernel, request: StreamRequest, onEvent?: (event: AssistantMessageEvent) => void): Promise<Collected> {
  const stream = kernel.hook("stream").get(request.model.api)?.call(request);
  if (!stream) throw new Error(`No provider for ${request.model.api}`);
  const events: AssistantMessageEvent[] = [];
  const snapshots: string[] = [];
  for await (const event of stream) {
    events.push(event);
    snapshots.push(JSON.stringify(event.partial));
    onEvent?.(event);
  }
  const final = events[events.length - 1];
  if (!final) throw new Error("Stream produced no events");
  return { events, snapshots, final };
}

export const BASH_TOOL: ToolSpec = {
  name: "bash",
  description: "Run a shell command",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

/** 1x1 transparent PNG. */
export const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
