/**
 * pi's flags that Atomic does not have, each with what to do instead: someone coming from pi gets
 * that answer rather than "Unknown option". Checked only for flags no plugin or extension declared.
 */
const SKILLS = "add skill folders with the `skills` setting (project skills in .atomic/skills load by themselves)";
const TEMPLATES = "add template folders with the `prompts` setting (project templates in .atomic/prompts load by themselves)";
const THEMES = "Atomic has no terminal UI, so it has no themes";

export const PI_ONLY_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  "--export": "export the current session with the export_html RPC command",
  "-ne": "use --no-extensions",
  "--skill": SKILLS,
  "--no-skills": SKILLS,
  "-ns": SKILLS,
  "--prompt-template": TEMPLATES,
  "--no-prompt-templates": TEMPLATES,
  "-np": TEMPLATES,
  "--theme": THEMES,
  "--no-themes": THEMES,
  "--verbose": "diagnostics always go to stderr; `atomic config` shows the whole configuration",
  "--offline": "Atomic makes no network calls at startup (the replay provider works with no network at all)",
});

/** The explanation for a pi-only flag, or undefined for a flag pi does not have either. */
export function piOnlyFlagMessage(option: string): string | undefined {
  const hint = Object.hasOwn(PI_ONLY_FLAGS, option) ? PI_ONLY_FLAGS[option] : undefined;
  return hint && `Option ${option} is pi's; Atomic does not support it: ${hint}.`;
}
