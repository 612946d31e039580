/**
 * The environment a confined command gets: the agent's, without what carries credentials (names
 * with a KEY, TOKEN, SECRET, PASSWORD or CREDENTIAL part, the ssh and gpg agents' sockets), with
 * the private temp folder as TMPDIR and, for an allow-listed network, the proxy variables.
 */
const SECRET_PARTS = new Set(["KEY", "APIKEY", "TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS"]);
const AGENT_SOCKETS = new Set(["SSH_AUTH_SOCK", "GPG_AGENT_INFO"]);

export function isSecretName(name: string): boolean {
  return AGENT_SOCKETS.has(name) || name.split(/[_\-.]/).some((part) => SECRET_PARTS.has(part.toUpperCase()));
}

export function confinedEnv(env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !isSecretName(name)) out[name] = value;
  return { ...out, ...extra };
}
