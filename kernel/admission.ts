/**
 * Admission of a batch of plugins, before any of them runs (Fastify's pipeline): names unique,
 * required plugins present, each service published by one plugin and every required service
 * published by some plugin; then an order where each plugin follows its dependencies, the
 * plugins it wants to run `after`, and the publishers of the services it requires.
 */
import { ErrorCode, KernelError, kernelErrors } from "./errors.js";
import type { PluginDefinition } from "./plugin.js";

/** What earlier batches already brought. */
export interface Admitted {
  plugins: ReadonlySet<string>;
  /** service -> publishing plugin */
  services: ReadonlyMap<string, string>;
}

/** Checks a batch against what is loaded; returns it in application order. */
export function admit(batch: readonly PluginDefinition[], admitted: Admitted): PluginDefinition[] {
  const byName = new Map<string, PluginDefinition>();
  for (const plugin of batch) {
    if (byName.has(plugin.name) || admitted.plugins.has(plugin.name)) throw kernelErrors.duplicate("Plugin", plugin.name, plugin.name);
    byName.set(plugin.name, plugin);
  }
  const publishers = new Map(admitted.services);
  for (const plugin of batch) {
    for (const service of plugin.provides ?? []) {
      const existing = publishers.get(service);
      if (existing) throw new KernelError(ErrorCode.DUPLICATE, `Service "${service}" is provided by both "${existing}" and "${plugin.name}"`, { plugin: plugin.name });
      publishers.set(service, plugin.name);
    }
  }
  for (const plugin of batch) {
    for (const dependency of plugin.dependsOn ?? []) {
      if (!byName.has(dependency) && !admitted.plugins.has(dependency)) throw kernelErrors.missingDependency(plugin.name, dependency);
    }
    for (const service of plugin.requires ?? []) {
      if (!publishers.has(service)) throw kernelErrors.serviceMissing(service, plugin.name);
    }
  }
  return order(batch, byName, publishers);
}

function order(batch: readonly PluginDefinition[], byName: Map<string, PluginDefinition>, publishers: Map<string, string>): PluginDefinition[] {
  const ordered: PluginDefinition[] = [];
  const state = new Map<string, "visiting" | "done">();
  const predecessors = (plugin: PluginDefinition): string[] =>
    [...(plugin.dependsOn ?? []), ...(plugin.after ?? []), ...(plugin.requires ?? []).map((service) => publishers.get(service)!)].filter(
      (name) => name !== plugin.name && byName.has(name),
    );
  const visit = (plugin: PluginDefinition, chain: string[]): void => {
    const mark = state.get(plugin.name);
    if (mark === "done") return;
    if (mark === "visiting") {
      throw new KernelError(ErrorCode.PLUGIN_CYCLE, `Plugin dependency cycle: ${[...chain, plugin.name].join(" -> ")}`, { plugin: plugin.name });
    }
    state.set(plugin.name, "visiting");
    for (const name of predecessors(plugin)) visit(byName.get(name)!, [...chain, plugin.name]);
    state.set(plugin.name, "done");
    ordered.push(plugin);
  };
  for (const plugin of batch) visit(plugin, []);
  return ordered;
}
