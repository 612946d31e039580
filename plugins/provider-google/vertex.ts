/**
 * Gemini on Google Cloud Vertex AI (`google-vertex`): the same request through @google/genai's
 * Vertex mode. With a key (`GOOGLE_CLOUD_API_KEY`, pi's name, or a stored one) it is Vertex's
 * express mode; without one, Application Default Credentials for `GOOGLE_CLOUD_PROJECT` (or
 * `GCLOUD_PROJECT`) in `GOOGLE_CLOUD_LOCATION` (default `global`): the service-account file of
 * `GOOGLE_APPLICATION_CREDENTIALS`, or what `gcloud auth application-default login` stored.
 * Everything is passed explicitly: the SDK never reads the process environment on its own.
 */
import { GoogleGenAI } from "@google/genai";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { presentHeaders } from "../../lib/provider-kit/request-headers.js";
import type { GeminiClientFactory } from "./stream.js";

const CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";

export function vertexClient(env: NodeJS.ProcessEnv): GeminiClientFactory {
  return (call: ProviderCall) => {
    // The catalog's `{location}` URL is the SDK's own default; a real URL (models.json) replaces it.
    const httpOptions = { ...(call.baseUrl.includes("{") ? {} : { baseUrl: call.baseUrl }), headers: presentHeaders(call.headers), fetch: call.fetch };
    if (call.apiKey) return new GoogleGenAI({ vertexai: true, apiKey: call.apiKey, httpOptions });
    const project = env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT;
    if (!project) throw new Error("Vertex AI needs GOOGLE_CLOUD_API_KEY, or GOOGLE_CLOUD_PROJECT (with GOOGLE_CLOUD_LOCATION) and Application Default Credentials.");
    const keyFilename = env.GOOGLE_APPLICATION_CREDENTIALS;
    return new GoogleGenAI({
      vertexai: true,
      project,
      location: env.GOOGLE_CLOUD_LOCATION || "global",
      googleAuthOptions: { scopes: [CLOUD_PLATFORM], ...(keyFilename ? { keyFilename } : {}) },
      httpOptions,
    });
  };
}
