/**
 * Inside a sandbox whose network is an allow-list there is no network but loopback; this tiny
 * program (run by the agent's own node, as `node -e`) listens on 127.0.0.1:<port> there, passes
 * every connection to the proxy's unix socket bound in from the agent, starts the command with
 * the proxy variables set, and exits with the command's status. Plain JavaScript in a string:
 * it runs as is in a fresh node, from sources and from the bundle alike.
 */
import { INNER_PROXY_PORT, INNER_PROXY_SOCKET } from "./bwrap.js";

const FORWARDER_SOURCE = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, port, file, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream).pipe(client);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on("error", close);
  upstream.on("error", close);
});
server.on("error", (error) => { process.stderr.write("atomic sandbox: the network proxy cannot start: " + error.message + "\\n"); process.exit(126); });
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(file, args, { stdio: "inherit" });
  child.on("error", (error) => { process.stderr.write(error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => {
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    process.exit(code ?? 1);
  });
  for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, () => child.kill(name));
});
`;

/** The command as the forwarder runs it. */
export function throughForwarder(node: string, command: { file: string; args: string[] }): { file: string; args: string[] } {
  return { file: node, args: ["--no-warnings", "-e", FORWARDER_SOURCE, "--", INNER_PROXY_SOCKET, String(INNER_PROXY_PORT), command.file, ...command.args] };
}

/** The variables that send HTTP(S) clients (curl, git, npm, pip, ...) to the forwarder. */
export function proxyEnv(url = `http://127.0.0.1:${INNER_PROXY_PORT}`): NodeJS.ProcessEnv {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url, NO_PROXY: "", no_proxy: "" };
}
