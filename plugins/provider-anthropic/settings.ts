/** The `anthropic` settings key: `cacheTtl`, the prompt-cache lifetime, "5m" (default) or "1h". */
import { z } from "zod";
import { defineSetting } from "../../kernel/index.js";

export const anthropicSetting = defineSetting(() => z.object({ cacheTtl: z.enum(["5m", "1h"]).optional() }), {
  description: 'Anthropic options: cacheTtl, the prompt-cache lifetime ("5m" default, "1h": writes cost twice the input price).',
});

declare module "../../kernel/config.js" {
  interface Settings {
    anthropic?: z.output<ReturnType<(typeof anthropicSetting)["schema"]>>;
  }
}
