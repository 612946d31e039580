/**
 * Example plugin: a new RPC command. `usage_report` answers token and cost totals per model
 * for this process, gathered by observing `message_end`. The zod schema is the command's only
 * declaration of its input: it gives the handler's type, validation errors and JSON Schema.
 *
 *   {"type":"usage_report","model":"anthropic/claude-sonnet-4-6"}
 */
import { defineCommand, definePlugin, type AssistantMessage } from "atomic-agent";
import { z } from "zod";

interface Totals {
  messages: number;
  input: number;
  output: number;
  cost: number;
}

export default definePlugin({
  name: "usage-report",
  apply(k) {
    const byModel = new Map<string, Totals>();
    k.hooks.message_end.tap(k.name, ({ message }) => {
      if (message.role !== "assistant") return;
      const { provider, model, usage } = message as AssistantMessage;
      const key = `${provider}/${model}`;
      const totals = byModel.get(key) ?? { messages: 0, input: 0, output: 0, cost: 0 };
      totals.messages += 1;
      totals.input += usage.input + usage.cacheRead + usage.cacheWrite;
      totals.output += usage.output;
      totals.cost += usage.cost.total;
      byModel.set(key, totals);
    });
    k.registerCommand(
      defineCommand({
        name: "usage_report",
        description: "Token and cost totals per model since this process started.",
        input: () => z.object({ model: z.string().optional().describe("Only this provider/model") }),
        run: ({ model }) => ({
          models: [...byModel.entries()].filter(([key]) => !model || key === model).map(([key, totals]) => ({ model: key, ...totals })),
        }),
      }),
    );
  },
});
