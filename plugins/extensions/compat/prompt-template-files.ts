/**
 * pi's prompt templates as its DefaultResourceLoader (resource-loader.ts) reads them: the `.md`
 * files of a folder (one level down) or one file, each named after its file and described by its
 * frontmatter or first line; when two places hold a name, the first place's wins and the other
 * is reported as a collision.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ResourceDiagnostic } from "./skills.js";
import { createSyntheticSourceInfo, parseFrontmatter, type SourceInfo } from "./text.js";

export interface PromptTemplate {
  name: string;
  description: string;
  argumentHint?: string;
  content: string;
  sourceInfo: SourceInfo;
  filePath: string;
}

/** Where a template folder is: the agent dir's, the project's, or one a setting or option adds. */
export type TemplateScope = "user" | "project" | "temporary";

function loadTemplate(filePath: string, sourceInfo: SourceInfo): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
  try {
    const { frontmatter, body } = parseFrontmatter(readFileSync(filePath, "utf8"));
    const firstLine = body.split("\n").find((line) => line.trim());
    const description =
      typeof frontmatter.description === "string" && frontmatter.description
        ? frontmatter.description
        : firstLine
          ? `${firstLine.slice(0, 60)}${firstLine.length > 60 ? "..." : ""}`
          : "";
    const hint = frontmatter["argument-hint"];
    return {
      template: {
        name: basename(filePath).replace(/\.md$/, ""),
        description,
        ...(typeof hint === "string" && hint ? { argumentHint: hint } : {}),
        content: body,
        sourceInfo,
        filePath,
      },
      diagnostics: [],
    };
  } catch (error) {
    return { diagnostics: [{ type: "warning", message: error instanceof Error ? error.message : String(error), path: filePath }] };
  }
}

/** `.md` files of a folder (one level), or one `.md` file. */
function loadTemplates(path: string, scope: TemplateScope): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
  const out = { prompts: [] as PromptTemplate[], diagnostics: [] as ResourceDiagnostic[] };
  const add = (file: string) => {
    const found = loadTemplate(file, createSyntheticSourceInfo(file, { source: "local", scope, baseDir: dirname(file) }));
    if (found.template) out.prompts.push(found.template);
    out.diagnostics.push(...found.diagnostics);
  };
  if (!existsSync(path)) return out;
  if (statSync(path).isFile()) {
    if (path.endsWith(".md")) add(path);
    return out;
  }
  for (const name of readdirSync(path).sort()) {
    const file = join(path, name);
    try {
      if (name.endsWith(".md") && statSync(file).isFile()) add(file);
    } catch {}
  }
  return out;
}

/** Every place's templates, in order: the first of a name wins, a later one is a collision. */
export function loadPromptTemplates(sources: readonly [string, TemplateScope][]): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
  const byName = new Map<string, PromptTemplate>();
  const diagnostics: ResourceDiagnostic[] = [];
  for (const [path, scope] of sources) {
    const found = loadTemplates(path, scope);
    diagnostics.push(...found.diagnostics);
    for (const prompt of found.prompts) {
      const winner = byName.get(prompt.name);
      if (!winner) byName.set(prompt.name, prompt);
      else
        diagnostics.push({
          type: "collision",
          message: `name "/${prompt.name}" collision`,
          path: prompt.filePath,
          collision: { resourceType: "prompt", name: prompt.name, winnerPath: winner.filePath, loserPath: prompt.filePath },
        });
    }
  }
  return { prompts: [...byName.values()], diagnostics };
}
