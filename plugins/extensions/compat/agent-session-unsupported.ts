/**
 * The members of pi's AgentSession that Atomic's session does not have, each with what to use
 * instead: calling one (or reading one, for properties) throws that, never a silent nothing.
 */
const STATE = "await session.prompt() then read session.messages / session.state";
const COMMANDS = "run the second agent's commands through its extensions, or use the RPC protocol (`atomic --mode rpc`)";

/** Methods: called, they throw. */
export const UNSUPPORTED_SESSION_METHODS: Record<string, string> = {
  refreshContext: "Atomic rebuilds the context on every turn",
  setCacheWarmingMode: "Atomic has no cache warming",
  getActiveToolNames: "choose tools when creating it: createAgentSession({ tools, excludeTools, noTools })",
  getCallableToolNames: "choose tools when creating it: createAgentSession({ tools, excludeTools, noTools })",
  getAllTools: "choose tools when creating it: createAgentSession({ tools, excludeTools, noTools })",
  getToolDefinition: "choose tools when creating it: createAgentSession({ tools, excludeTools, noTools })",
  setActiveToolsByName: "choose tools when creating it: createAgentSession({ tools, excludeTools, noTools })",
  setScopedModels: "pass scopedModels to createAgentSession()",
  sendCustomMessage: "use sendUserMessage(), or pi.sendMessage() from an extension the session loads",
  clearQueue: "abort() ends the run and its queue",
  getSteeringMessages: "session.pendingMessageCount counts them",
  getFollowUpMessages: "session.pendingMessageCount counts them",
  cycleThinkingLevel: "use setThinkingLevel(level)",
  getAvailableThinkingLevels: "use setThinkingLevel(level): Atomic clamps it to the model",
  supportsThinking: "read session.model.reasoning",
  abortCompaction: "abort() stops a compaction in progress",
  abortBranchSummary: "abort() stops the run",
  bindExtensions: "the session's extensions run headless in Atomic: their UI calls reach no terminal",
  reload: "create a new session (dispose this one)",
  recordBashResult: COMMANDS,
  navigateTree: COMMANDS,
  getUserMessagesForForking: COMMANDS,
  getSessionStats: `count from session.messages (${STATE})`,
  getContextUsage: `count from session.messages (${STATE})`,
  exportToJsonl: "the session file is JSONL already: read session.sessionFile",
  summarizeForBugReport: "Atomic has no bug-report summary",
  createReplacedSessionContext: "create a new session with createAgentSession()",
  hasExtensionHandlers: "Atomic does not hand another agent's extensions out",
};

/** Properties: read, they throw. */
export const UNSUPPORTED_SESSION_PROPERTIES: Record<string, string> = {
  agent: "pi's Agent object is internal to pi; use the session's own prompt(), subscribe(), messages and abort()",
  sessionManager: "open the session's file with SessionManager.open(session.sessionFile)",
  settingsManager: "pass a SettingsManager to createAgentSession() and keep it",
  modelRuntime: "use ModelRuntime.create() (the running agent's catalog, the same models)",
  resourceLoader: "the session finds resources as the CLI does; use a DefaultResourceLoader of your own to read them",
  extensionRunner: "Atomic does not hand another agent's extensions out",
  cacheWarmingStatus: "Atomic has no cache warming",
  systemPrompt: "the system prompt is built per turn by the session's plugins",
  retryAttempt: "subscribe() to auto_retry_start / auto_retry_end events",
  isRetrying: "subscribe() to auto_retry_start / auto_retry_end events",
  autoRetryEnabled: "set it with setAutoRetryEnabled()",
  autoCompactionEnabled: "set it with setAutoCompactionEnabled()",
  isCompacting: "subscribe() to compaction_start / compaction_end events",
  isBashRunning: "await executeBash()",
  hasPendingBashMessages: "await executeBash()",
  scopedModels: "pass scopedModels to createAgentSession()",
  promptTemplates: "use a DefaultResourceLoader to read the prompt templates",
};
