/**
 * pi 1.x publishes its packages as `@earendil-works/*`; extensions written for it import those
 * names. They are served the same modules as the `@mariozechner/*` names (docs/extensions.md,
 * "Modules an extension can import"), so such an extension never loads an installed pi.
 */
import type { VirtualModules } from "./modules.js";

/** New name -> the name whose module it gets. */
export const EARENDIL_NAMES = {
  "@earendil-works/pi-ai": "@mariozechner/pi-ai",
  "@earendil-works/pi-coding-agent": "@mariozechner/pi-coding-agent",
  "@earendil-works/pi-agent-core": "@mariozechner/pi-agent-core",
} as const;

/** `modules` with the `@earendil-works/*` names added (same objects). */
export function withEarendilNames(modules: VirtualModules): VirtualModules {
  const out: VirtualModules = { ...modules };
  for (const [name, served] of Object.entries(EARENDIL_NAMES)) out[name] = modules[served]!;
  return out;
}
