/**
 * The table behind pi's `SettingsManager` (settings-manager.ts): pi's defaults, the settings with a
 * plain getter and setter pair, the lists with a project setter too, and the dotted-path reads and
 * writes they go through.
 */
/** Whatever JSON the user's file holds. */
export type Settings = Record<string, any>;

/** pi's defaults where a getter has one. */
export const DEFAULTS = {
  transport: "auto",
  sessionShareDestination: "auto",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  "compaction.enabled": true,
  "compaction.reserveTokens": 16384,
  "compaction.keepRecentTokens": 20000,
  "branchSummary.reserveTokens": 16384,
  "branchSummary.skipPrompt": false,
  "retry.enabled": true,
  "retry.maxRetries": 3,
  "retry.baseDelayMs": 2000,
  "retry.maxAgentDelayMs": 60000,
  "retry.provider.maxRetryDelayMs": 60000,
  hideThinkingBlock: false,
  showCacheMissNotices: false,
  quietStartup: false,
  defaultProjectTrust: "ask",
  collapseChangelog: false,
  enableInstallTelemetry: true,
  enableAnalytics: false,
  enableSkillCommands: true,
  "terminal.showImages": true,
  "terminal.imageWidthCells": 60,
  "terminal.clearOnShrink": false,
  "terminal.showTerminalProgress": false,
  "images.autoResize": true,
  "images.blockImages": false,
  doubleEscapeAction: "tree",
  treeFilterMode: "default",
  editorPaddingX: 0,
  outputPad: 1,
  autocompleteMaxVisible: 5,
  "markdown.codeBlockIndent": "  ",
  "markdown.mermaid": "streaming",
  cacheWarming: "idle",
  tuiMode: "fullscreen",
  fullscreenExitOutput: "transcript",
  fullscreenScrollbar: "auto",
  fullscreenCopyOnSelect: true,
  fullscreenWheelScrollLines: "auto",
  showHardwareCursor: false,
  httpIdleTimeoutMs: 300000,
} as const;

/** Accessors that read one key and write it to the user's file: [name after get/set, key path]. */
export const PLAIN: [string, string][] = [
  ["LastChangelogVersion", "lastChangelogVersion"],
  ["DefaultProvider", "defaultProvider"],
  ["DefaultModel", "defaultModel"],
  ["SteeringMode", "steeringMode"],
  ["FollowUpMode", "followUpMode"],
  ["DefaultThinkingLevel", "defaultThinkingLevel"],
  ["Transport", "transport"],
  ["SessionShareDestination", "sessionShareDestination"],
  ["CompactionEnabled", "compaction.enabled"],
  ["RetryEnabled", "retry.enabled"],
  ["HttpIdleTimeoutMs", "httpIdleTimeoutMs"],
  ["CacheWarmingMode", "cacheWarming"],
  ["HideThinkingBlock", "hideThinkingBlock"],
  ["ShowCacheMissNotices", "showCacheMissNotices"],
  ["ShellPath", "shellPath"],
  ["QuietStartup", "quietStartup"],
  ["DefaultProjectTrust", "defaultProjectTrust"],
  ["ShellCommandPrefix", "shellCommandPrefix"],
  ["CollapseChangelog", "collapseChangelog"],
  ["EnableInstallTelemetry", "enableInstallTelemetry"],
  ["EnableSkillCommands", "enableSkillCommands"],
  ["ShowImages", "terminal.showImages"],
  ["ImageWidthCells", "terminal.imageWidthCells"],
  ["ClearOnShrink", "terminal.clearOnShrink"],
  ["ShowTerminalProgress", "terminal.showTerminalProgress"],
  ["TuiMode", "tuiMode"],
  ["FullscreenExitOutput", "fullscreenExitOutput"],
  ["FullscreenScrollbar", "fullscreenScrollbar"],
  ["FullscreenCopyOnSelect", "fullscreenCopyOnSelect"],
  ["FullscreenWheelScrollLines", "fullscreenWheelScrollLines"],
  ["ImageAutoResize", "images.autoResize"],
  ["BlockImages", "images.blockImages"],
  ["EnabledModels", "enabledModels"],
  ["DoubleEscapeAction", "doubleEscapeAction"],
  ["TreeFilterMode", "treeFilterMode"],
  ["ShowHardwareCursor", "showHardwareCursor"],
  ["EditorPaddingX", "editorPaddingX"],
  ["OutputPad", "outputPad"],
  ["AutocompleteMaxVisible", "autocompleteMaxVisible"],
  ["MermaidRenderingMode", "markdown.mermaid"],
];
/** List settings: a getter that copies, a setter for the user's file and one for the project's. */
export const LISTS: [string, string][] = [
  ["Packages", "packages"],
  ["ExtensionPaths", "extensions"],
  ["SkillPaths", "skills"],
  ["PromptTemplatePaths", "prompts"],
  ["ThemePaths", "themes"],
];

export const read = (settings: Settings, path: string): unknown =>
  path.split(".").reduce<any>((value, key) => (value && typeof value === "object" ? value[key] : undefined), settings);
export function write(settings: Settings, path: string, value: unknown): void {
  const keys = path.split(".");
  let target = settings;
  for (const key of keys.slice(0, -1)) target = target[key] = target[key] && typeof target[key] === "object" ? target[key] : {};
  if (value === undefined) delete target[keys.at(-1)!];
  else target[keys.at(-1)!] = value;
}
