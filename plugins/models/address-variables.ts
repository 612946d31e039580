/**
 * A base URL's `{VARIABLE}` placeholders (Cloudflare's `{CLOUDFLARE_ACCOUNT_ID}`), filled when a
 * request is made. The same check decides availability: a model whose address names a variable
 * that is set nowhere is not offered, since every request to it would fail. Lower-case
 * placeholders (Azure's `{resource}`, Vertex's `{location}`, Bedrock's `{region}`) are the
 * adapters' to fill and are not matched here.
 */
const PLACEHOLDER = /\{([A-Z][A-Z0-9_]*)\}/g;

/** A variable's value where the registry reads it (the stored credential's `env`, then the environment). */
export type VariableLookup = (name: string) => string | undefined;

/** The URL's placeholders that `lookup` leaves unset or empty, each once, in order. */
export function missingAddressVariables(url: string, lookup: VariableLookup): string[] {
  // Catalogs list hundreds of models; almost none has a placeholder.
  if (!url.includes("{")) return [];
  const missing = new Set<string>();
  for (const [, name] of url.matchAll(PLACEHOLDER)) if (!lookup(name!)) missing.add(name!);
  return [...missing];
}

/** The URL with every placeholder filled (URL-encoded); call after `missingAddressVariables` found none. */
export function fillAddressVariables(url: string, lookup: VariableLookup): string {
  return url.replace(PLACEHOLDER, (_, name: string) => encodeURIComponent(lookup(name) ?? ""));
}

/** `<provider> needs <NAME> for its address (<url>): set it in the environment.`, naming every missing variable. */
export function needsAddressVariables(provider: string, missing: readonly string[], shownUrl?: string): string {
  const names = missing.length === 1 ? missing[0]! : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)!}`;
  return `${provider} needs ${names} for its address${shownUrl ? ` (${shownUrl})` : ""}: set ${missing.length === 1 ? "it" : "them"} in the environment.`;
}
