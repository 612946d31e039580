/**
 * `extension_ui_response`: a client's reply to a dialog, not a command. It is validated on the
 * immediate lane and answered by no response; a reply nobody waits for is one stderr line.
 */
import { z } from "zod";
import { NO_DATA, type CommandDefinition, type Logger } from "../../kernel/index.js";
import type { ExtensionsHooks, UiResponse } from "./hooks.js";

/**
 * A field of the wrong type is read as absent rather than refused, so the waiting dialog still
 * gets the reply and resolves it as cancelled; a reply without a string `id` matches no dialog
 * and is only logged.
 */
const uiResponseInput = () =>
  z
    .object({
      id: z.string().meta({ description: "The id of the extension_ui_request being answered." }),
      value: z.string().optional().catch(undefined).meta({ description: "select: the chosen option; input, editor: the text." }),
      confirmed: z.boolean().optional().catch(undefined).meta({ description: "confirm: the answer." }),
      cancelled: z.boolean().optional().catch(undefined).meta({ description: "true: the user dismissed the dialog (any method)." }),
    })
    .meta({ examples: [{ id: "ui-1", value: "Allow" }] });

export function uiReplyCommand(hooks: Pick<ExtensionsHooks, "ui_response">, log: Logger): CommandDefinition<any, any> {
  return {
    name: "extension_ui_response",
    description: "A client's answer to an extension_ui_request dialog (no response); a reply of the wrong type for its dialog resolves it as cancelled.",
    lane: "immediate",
    noResponse: true,
    output: NO_DATA,
    input: uiResponseInput,
    run: async (reply: UiResponse) => {
      const handled = hooks.ui_response.isUsed() ? await hooks.ui_response.promise(reply) : undefined;
      if (!handled) log.warn(`Ignored extension_ui_response "${reply.id}": no dialog is waiting for it`);
    },
  };
}
