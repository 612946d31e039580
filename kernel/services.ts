/**
 * Typed services: how plugins offer APIs to each other without globals. A plugin provides
 * `services.provide("agent", api)`; others `services.get("agent")`. Plugins add their keys by
 * augmenting `Services`:
 *
 * @example
 * declare module "atomic-agent" { interface Services { greeter: { greet(name: string): string } } }
 */
import { kernelErrors } from "./errors.js";

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Services {}

export class ServiceRegistry {
  readonly #services = new Map<string, { value: unknown; plugin: string }>();
  #frozen = false;

  provide<K extends keyof Services & string>(name: K, value: Services[K], plugin = "kernel"): void {
    if (this.#frozen) throw kernelErrors.frozen(`provide service "${name}"`);
    const existing = this.#services.get(name);
    if (existing) throw kernelErrors.duplicate("Service", name, plugin, existing.plugin);
    this.#services.set(name, { value, plugin });
  }

  get<K extends keyof Services & string>(name: K): Services[K] {
    const entry = this.#services.get(name);
    if (!entry) throw kernelErrors.serviceMissing(name);
    return entry.value as Services[K];
  }

  maybe<K extends keyof Services & string>(name: K): Services[K] | undefined {
    return this.#services.get(name)?.value as Services[K] | undefined;
  }

  freeze(): void {
    this.#frozen = true;
  }
}
