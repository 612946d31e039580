/**
 * Inside a sandbox whose network is an allow-list there is no network but loopback; a tiny
 * forwarder listens on 127.0.0.1:<port> there and passes every connection to the proxy's unix
 * socket bound in from the agent, then the command runs with the proxy variables set. Perl (its
 * core Socket module: Debian and most systems have it, and it starts in a few milliseconds) binds
 * the port, forks the forwarder and becomes the command, so the command starts only once the port
 * listens; without perl the agent's own node runs it (tens of milliseconds more per command).
 * Both are source text passed on the command line (`perl -e`, `node -e`), so nothing is written
 * anywhere and the same code runs from the sources and from the bundle.
 */
import { INNER_PROXY_PORT, INNER_PROXY_SOCKET } from "./bwrap.js";

const PERL_FORWARDER = `
use strict; use Socket;
my ($path, $port, @cmd) = @ARGV;
sub fail { print STDERR "atomic sandbox: the network proxy cannot start: $_[0]\\n"; exit 126 }
socket(my $l, PF_INET, SOCK_STREAM, 0) or fail($!);
setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1);
bind($l, pack_sockaddr_in($port, inet_aton("127.0.0.1"))) or fail($!);
listen($l, 128) or fail($!);
my $command = $$;
my $pid = fork();
fail($!) unless defined $pid;
if ($pid) { close($l); exec { $cmd[0] } @cmd; print STDERR "$cmd[0]: $!\\n"; exit 127 }
open(STDIN, "<", "/dev/null"); open(STDOUT, ">", "/dev/null"); open(STDERR, ">", "/dev/null");
$SIG{CHLD} = "IGNORE";
$SIG{ALRM} = sub { exit 0 if getppid() != $command; alarm 1 };
alarm 1;
sub pump { my ($from, $to) = @_; my $buf; while (1) { my $n = sysread($from, $buf, 65536); last unless $n; my $off = 0; while ($off < $n) { my $w = syswrite($to, $buf, $n - $off, $off); return unless defined $w; $off += $w } } shutdown($to, 1) }
while (1) {
  accept(my $c, $l) or next;
  my $h = fork();
  if (defined $h && $h == 0) {
    close($l);
    socket(my $u, PF_UNIX, SOCK_STREAM, 0) or exit 1;
    connect($u, pack_sockaddr_un($path)) or exit 1;
    my $p = fork();
    if (defined $p && $p == 0) { pump($c, $u); exit 0 }
    pump($u, $c); exit 0;
  }
  close($c);
}
`;

const NODE_FORWARDER = `
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

/** Which program runs the forwarder: perl, else node. */
export type Forwarder = { kind: "perl" | "node"; program: string };

/** The command as the forwarder runs it. */
export function throughForwarder(
  forwarder: Forwarder,
  command: { file: string; args: string[] },
  at = { socket: INNER_PROXY_SOCKET, port: INNER_PROXY_PORT },
): { file: string; args: string[] } {
  const rest = [at.socket, String(at.port), command.file, ...command.args];
  if (forwarder.kind === "perl") return { file: forwarder.program, args: ["-e", PERL_FORWARDER, "--", ...rest] };
  return { file: forwarder.program, args: ["--no-warnings", "-e", NODE_FORWARDER, "--", ...rest] };
}

/** perl with its Socket module when on PATH (tried once), else this process's node. */
export async function findForwarder(env: NodeJS.ProcessEnv, findOnPath: (name: string, env: NodeJS.ProcessEnv) => Promise<string | undefined>): Promise<Forwarder> {
  const perl = await findOnPath("perl", env);
  if (perl) {
    const { execFile } = await import("node:child_process");
    const works = await new Promise<boolean>((resolve) => execFile(perl, ["-MSocket", "-e", "1"], { timeout: 10_000 }, (error) => resolve(!error)));
    if (works) return { kind: "perl", program: perl };
  }
  return { kind: "node", program: process.execPath };
}

/** The variables that send HTTP(S) clients (curl, git, npm, pip, ...) to the forwarder. */
export function proxyEnv(url = `http://127.0.0.1:${INNER_PROXY_PORT}`): NodeJS.ProcessEnv {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url, NO_PROXY: "", no_proxy: "" };
}
