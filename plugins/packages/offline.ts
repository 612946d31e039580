/** Offline mode (pi's PI_OFFLINE, or ATOMIC_OFFLINE): package updates and start-up installs reach no network. */
export function offlineVariable(env: NodeJS.ProcessEnv): string | undefined {
  return ["ATOMIC_OFFLINE", "PI_OFFLINE"].find((name) => /^(1|true|yes)$/i.test(env[name] ?? ""));
}
