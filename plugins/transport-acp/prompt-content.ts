/**
 * An ACP prompt (content blocks) as the text and images of Atomic's `prompt` command. Text runs
 * inline; a file mention (`resource_link`) becomes `@<path>`; an embedded resource (the editor
 * already read the file) becomes a fenced block named by its path; images pass through. Audio is
 * not advertised and is refused.
 */
import { fileURLToPath } from "node:url";

export type PromptBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null } };

export interface PromptCommandFields {
  message: string;
  images?: { type: "image"; data: string; mimeType: string }[];
}

/** `file:///a/b.ts` -> `/a/b.ts`; other URIs stay as they are. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

export function promptFields(blocks: readonly PromptBlock[]): PromptCommandFields {
  let message = "";
  const images: { type: "image"; data: string; mimeType: string }[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        message += block.text;
        break;
      case "image":
        images.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "resource_link":
        message += `@${pathOf(block.uri)}`;
        break;
      case "resource": {
        const { uri, text } = block.resource;
        message += text !== undefined ? `\n\n${pathOf(uri)}:\n\`\`\`\n${text}${text.endsWith("\n") ? "" : "\n"}\`\`\`\n` : `@${pathOf(uri)}`;
        break;
      }
      case "audio":
        throw new Error("Audio prompts are not supported");
    }
  }
  return images.length > 0 ? { message, images } : { message };
}
