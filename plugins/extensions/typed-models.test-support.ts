/**
 * What the typed-model tests share: a stand-in models registry (the given chat models, each
 * provider's address from `baseUrls`, no credential) and a classifier question to ask.
 */
import type { Model } from "../../lib/llm/index.js";
import type { ModelsApi } from "../models/api.js";

export function standInRegistry(baseUrls: Record<string, string> = {}, chat: readonly Model[] = []): ModelsApi {
  return {
    all: () => [...chat],
    available: () => [...chat],
    find: (provider: string, id: string) => chat.find((model) => model.provider === provider && model.id === id),
    hasProvider: (provider: string) => chat.some((model) => model.provider === provider),
    authStatus: () => ({ configured: false }),
    usesLogin: () => false,
    baseUrlOverride: (provider: string) => baseUrls[provider],
    apiKey: async () => undefined,
    missingAddressVariables: () => [],
    reloadCredentials: async () => {},
  } as unknown as ModelsApi;
}

/** Is the user upset? A classifier's state and question. */
export const UPSET_QUESTION = {
  state: { message: "It broke again" },
  questions: { upset: { type: "bool" as const, instructions: "Is the user upset?", criteria: { true: "yes", false: "no" } } },
};
