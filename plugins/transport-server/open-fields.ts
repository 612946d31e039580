/**
 * agent_open's fields that stand for launch flags: the agent's errors about them name the field
 * the client sent, and the `--connect` bridge, which was given the flags, names the flags again.
 */

/** Flag and the agent_open field that gives it. */
export const FLAG_FIELDS = [
  ["--provider", "provider"],
  ["--model", "model"],
  ["--thinking", "thinkingLevel"],
  ["--session", "resume"],
] as const;

type FlagField = (typeof FLAG_FIELDS)[number][1];

export function fieldName(field: FlagField): string {
  return `the "${field}" field of agent_open`;
}

/** How messages name the fields `source` gives (`optionNames`, by flag); undefined when it gives none. */
export function optionNamesOf(source: Partial<Record<FlagField, string | undefined>>): Record<string, string> | undefined {
  const given = FLAG_FIELDS.filter(([, field]) => source[field] !== undefined);
  return given.length > 0 ? Object.fromEntries(given.map(([flag, field]) => [flag, fieldName(field)])) : undefined;
}

/** A server error about agent_open's fields, naming the flags the bridge was given instead. */
export function namedAsFlags(message: string): string {
  return FLAG_FIELDS.reduce((text, [flag, field]) => text.split(fieldName(field)).join(flag), message);
}
