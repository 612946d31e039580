/**
 * Some provider SDKs are optional peer dependencies: the Bedrock ones bring ~60 MB of AWS SDK
 * that most users never call, so `npm install atomic-agent` leaves them out. Loading one that is
 * missing fails with Node's module-not-found error; this names the command that installs it.
 */

/** `error` as is, unless it says `pkg` could not be found: then what to install. */
export function explainMissingSdk(error: unknown, pkg: string, provider: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if ((code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") || !message.includes(pkg)) return error;
  return new Error(
    `The ${provider} provider needs the optional package ${pkg}, which is not installed: run \`npm install ${pkg}\` in the project where atomic-agent is installed.`,
  );
}

/** `load()` (an adapter module that imports `pkg`), a missing `pkg` turned into that instruction. */
export function importOptionalSdk<T>(load: () => Promise<T>, pkg: string, provider: string): Promise<T> {
  return load().catch((error: unknown) => {
    throw explainMissingSdk(error, pkg, provider);
  });
}
