/** The wire APIs the built-in adapters speak: the keys of the kernel's `stream` hook map. */
export const ANTHROPIC_API = "anthropic-messages";
/** Claude on Amazon Bedrock: the Messages request through Anthropic's Bedrock SDK. */
export const ANTHROPIC_BEDROCK_API = "anthropic-bedrock";
export const OPENAI_RESPONSES_API = "openai-responses";
export const OPENAI_COMPLETIONS_API = "openai-completions";
/** OpenAI models deployed on Azure: the Responses request through the openai SDK's Azure client. */
export const AZURE_OPENAI_RESPONSES_API = "azure-openai-responses";
export const GOOGLE_API = "google-generative-ai";
/** Gemini on Google Cloud Vertex AI: the same request through @google/genai's Vertex mode. */
export const GOOGLE_VERTEX_API = "google-vertex";
/** Every other Amazon Bedrock model (Llama, Nova, Mistral, ...): the Converse API through the AWS SDK. */
export const BEDROCK_CONVERSE_API = "bedrock-converse-stream";
/** Mistral's own chat endpoint (pi's name): `<baseUrl>/v1/chat/completions`, its thinking chunks and `prompt_mode`. */
export const MISTRAL_API = "mistral-conversations";
/** ChatGPT subscriptions (OpenAI Codex): the Responses request at `<baseUrl>/codex/responses`, an OAuth token. */
export const OPENAI_CODEX_API = "openai-codex-responses";
/** pi's own message protocol (the Radius gateway): `{model, context, options}` in, pi's events out. */
export const PI_MESSAGES_API = "pi-messages";
