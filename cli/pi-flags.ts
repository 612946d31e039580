/**
 * pi's flags that Atomic does not have, each with what to do instead: someone coming from pi gets
 * that answer rather than "Unknown option". Checked only for flags no plugin or extension declared
 * (pi's terminal-UI options are accepted and ignored instead: host/argv.ts).
 */
export const PI_ONLY_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  "--export": "export the current session with the export_html RPC command",
  "-ne": "use --no-extensions",
  "--offline": "Atomic makes no network calls at startup (the replay provider works with no network at all)",
});

/** The explanation for a pi-only flag, or undefined for a flag pi does not have either. */
export function piOnlyFlagMessage(option: string): string | undefined {
  const hint = Object.hasOwn(PI_ONLY_FLAGS, option) ? PI_ONLY_FLAGS[option] : undefined;
  return hint && `Option ${option} is pi's; Atomic does not support it: ${hint}.`;
}
