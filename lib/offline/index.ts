/**
 * Offline mode (pi's PI_OFFLINE, or ATOMIC_OFFLINE, set to 1, true or yes): nothing reaches the
 * network on its own (package updates and start-up installs, model-catalog refreshes, asking
 * local servers nobody named); a command that exists to fetch something says it cannot.
 */
export function offlineVariable(env: NodeJS.ProcessEnv): string | undefined {
  return ["ATOMIC_OFFLINE", "PI_OFFLINE"].find((name) => /^(1|true|yes)$/i.test(env[name] ?? ""));
}
