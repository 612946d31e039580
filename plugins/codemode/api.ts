/**
 * The `codemode` plugin's service: other plugins ask for the codemode tool to be offered by
 * default (pi activates it when an MCP server's tools are reachable only from scripts). A tool
 * selection that names tools (`--tools read,bash`) still decides: codemode is then offered only
 * when named.
 */
export interface CodemodeApi {
  /** `on`: `source` wants codemode offered by default; `off` withdraws that wish. */
  want(source: string, on: boolean): void;
  /**
   * A wait each script makes before it starts (bounded by `wait` itself): MCP servers still
   * connecting that the script may call. `reach` is "all" when the script uses a discovery global
   * (searchTools, describeTool, describeNamespace, ALL_TOOLS), else the words of its source.
   */
  beforeScript(source: string, wait: ScriptReadiness | undefined): void;
}

export type ScriptReadiness = (reach: "all" | readonly string[], signal: AbortSignal) => Promise<void>;

declare module "../../kernel/services.js" {
  interface Services {
    codemode: CodemodeApi;
  }
}
