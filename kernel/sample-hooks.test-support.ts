/**
 * Hooks and an event a stand-in plugin declares in the kernel's own tests: one per policy, so
 * the kernel is tested without any real owner's vocabulary.
 */
import { z } from "zod";
import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, SyncBailHook } from "tapable";
import { guard, internal, notify, transform, type DeclaredHooks } from "./hooks.js";
import { definePlugin, type PluginDefinition } from "./plugin.js";

export function sampleHooks() {
  return {
    sample_gate: guard(
      new AsyncSeriesBailHook<[{ item: string }], { refused: true; reason: string } | undefined>(["event"]),
      (message) => ({ refused: true as const, reason: `Refused: ${message}` }),
      "Before an item is used: a tap may refuse it.",
    ),
    sample_shape: transform(new AsyncSeriesWaterfallHook<[{ text: string }]>(["event"]), "Taps reshape the text."),
    sample_step: notify(new AsyncSeriesHook<[{ index: number }]>(["event"]), "A step happened."),
    sample_done: internal(new AsyncSeriesBailHook<[{ count: number }], { again: true } | undefined>(["event"]), "The owner asks whether to go again."),
    sample_render: internal(new HookMap((kind: string) => new SyncBailHook<[string], string | undefined>(["value"], kind)), "Renderers keyed by kind."),
  };
}

export const SampleAddedSchema = () => z.object({ item: z.string() });

declare module "./hooks.js" {
  interface HookCatalog extends DeclaredHooks<ReturnType<typeof sampleHooks>> {}
}
declare module "./events.js" {
  interface EventMap {
    sample_added: z.output<ReturnType<typeof SampleAddedSchema>>;
    sample_step: { index: number };
  }
}

/** The owner of the sample hooks. */
export const sampleOwner = (apply: PluginDefinition["apply"] = () => undefined): PluginDefinition => definePlugin({ name: "sample", hooks: sampleHooks, apply });
