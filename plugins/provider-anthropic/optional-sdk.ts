/**
 * `@anthropic-ai/bedrock-sdk` is an optional peer dependency (docs/decisions.md, What `npm install
 * atomic-agent` brings): a Bedrock request without it fails naming the command that installs it.
 */
import { importOptionalSdk } from "../../lib/provider-kit/optional-sdk.js";

const BEDROCK_SDK = "@anthropic-ai/bedrock-sdk";

/** Imports the Bedrock client module, turning a missing SDK into that instruction. */
export function importBedrock(): Promise<typeof import("./bedrock.js")> {
  return importOptionalSdk(() => import("./bedrock.js"), BEDROCK_SDK, "amazon-bedrock");
}
