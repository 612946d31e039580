/**
 * `@anthropic-ai/bedrock-sdk` (and the ~60 MB of AWS SDK it brings) is an optional peer
 * dependency: most users never call Bedrock, so `npm install atomic-agent` leaves it out. Loading
 * it when it is missing fails with Node's module-not-found error; this names the fix instead.
 */
export const BEDROCK_SDK = "@anthropic-ai/bedrock-sdk";

/** `error` as is, unless it says `pkg` could not be found: then what to install. */
export function explainMissingSdk(error: unknown, pkg: string, provider: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if ((code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") || !message.includes(pkg)) return error;
  return new Error(
    `The ${provider} provider needs the optional package ${pkg}, which is not installed: run \`npm install ${pkg}\` in the project where atomic-agent is installed.`,
  );
}

/** Imports the Bedrock client module, turning a missing SDK into that instruction. */
export function importBedrock(): Promise<typeof import("./bedrock.js")> {
  return import("./bedrock.js").catch((error: unknown) => {
    throw explainMissingSdk(error, BEDROCK_SDK, "amazon-bedrock");
  });
}
