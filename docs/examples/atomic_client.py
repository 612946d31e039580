#!/usr/bin/env python3
"""A small, dependency-free Python client for `atomic --mode rpc` (Python 3.8+).

Records are JSON lines split on LF only: stdout is read in binary mode, so a U+2028 inside a
JSON string never ends a record (text-mode line readers may split on more than LF).

    python3 atomic_client.py "Summarise README.md" -- --provider anthropic --model claude-sonnet-4-5

Set ATOMIC_CMD to run something other than `atomic` (for example `node dist/cli/atomic.cjs`).
A refused command or an agent that exits raises `AgentError` at once (with the end of the
agent's stderr, kept in `client.stderr`, when it exited); `run_error(events)` says why a run
failed. main() prints either on stderr and exits 1.

Extension dialogs (`extension_ui_request` with method select, confirm, input or editor) are
answered by `on_dialog(request)`, which returns the reply's fields: `{"value": ...}`,
`{"confirmed": True}` or `{"cancelled": True}`. Without one, every dialog is cancelled, so an
extension never waits forever. The example's main() asks on the terminal when it has one.

`connect(path)` reaches the agents of a running `atomic serve` over its unix socket instead:
`open_agent(...)`, `attach(agent)` and `list_agents()`, each agent with the same `request`,
`respond`, `prompt_and_wait` and `events`. A dropped connection is reconnected and every agent
attached again after the last `seq` it saw, so each event arrives once; when the server cannot
replay what was missed (it restarted), the agent's events get `{"type": "resync", ...}`: read
the state again (`get_messages`).
"""
import collections
import itertools
import json
import os
import queue
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time


DIALOGS = ("select", "confirm", "input", "editor")


class AgentError(RuntimeError):
    """A command the agent refused, a run that failed, or an agent that is gone."""


def run_error(events):
    """The error a run's events end with (its last reply failed or was aborted), else None."""
    replies = [e["message"] for e in events if e.get("type") == "message_end" and e["message"].get("role") == "assistant"]
    reason = replies[-1].get("stopReason") if replies else None
    if reason in ("error", "aborted"):
        return replies[-1].get("errorMessage") or "the run ended with stopReason %s" % reason
    return None


class _Conversation:
    """What a client of one agent does, whatever carries it: commands, events and dialogs."""

    def _converse(self, on_dialog):
        self._on_dialog = on_dialog or (lambda request: {"cancelled": True})
        self.events = queue.Queue()

    def _event(self, record):
        if record.get("type") == "extension_ui_request" and record.get("method") in DIALOGS:
            # Answered on a thread of its own: the handler may wait for a person, and the
            # reader must go on (the command that opened the dialog answers only after it).
            threading.Thread(target=self._answer, args=(record,), daemon=True).start()
        self.events.put(record)

    def respond(self, request_id, **fields):
        """Answers an extension dialog: its own id, not a fresh one (a reply gets no response)."""
        self._send(dict(fields, type="extension_ui_response", id=request_id))

    def _answer(self, request):
        try:
            reply = self._on_dialog(request)
        except Exception:  # a failing handler must not leave the extension waiting
            reply = None
        self.respond(request["id"], **(reply or {"cancelled": True}))

    def prompt_and_wait(self, message, on_event=None, timeout=300):
        """Sends a prompt and returns its events once the agent has settled."""
        response = self.request({"type": "prompt", "message": message})
        if not response["success"]:
            raise AgentError(response["error"])
        seen = []
        # An extension command handled it: nothing settles unless the command started a run.
        # What it emitted (a notify after its dialog) came before its response, so the reader
        # has queued it already: hand that on rather than leave it for the next prompt.
        if response.get("data", {}).get("disposition") == "handled":
            if not self.request({"type": "get_state"})["data"]["isStreaming"]:
                while True:
                    try:
                        event = self.events.get_nowait()
                    except queue.Empty:
                        return seen
                    if event is None:
                        raise self._gone()
                    seen.append(event)
                    if on_event:
                        on_event(event)
        while True:
            event = self.events.get(timeout=timeout)
            if event is None:
                raise self._gone()
            if event.get("type") == "agent_settled":
                return seen
            seen.append(event)
            if on_event:
                on_event(event)


class AtomicClient(_Conversation):
    """One `atomic --mode rpc` process of its own."""

    def __init__(self, extra_args=(), cwd=None, env=None, command=None, on_dialog=None):
        base = command or shlex.split(os.environ.get("ATOMIC_CMD", "atomic"))
        self._converse(on_dialog)
        self._write_lock = threading.Lock()
        self._proc = subprocess.Popen(
            base + ["--mode", "rpc", *extra_args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self._ids = itertools.count(1)
        self._pending = {}
        self._lock = threading.Lock()
        self._exit = None  # the AgentError that says how the process ended, once it has
        self._stderr = collections.deque(maxlen=40)  # its last lines, for that error
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        # The "really done" signal: one agent_settled event after each prompt (on by default;
        # asked for anyway, and the answer shows the agent is up).
        self.request({"type": "set_event_options", "agentSettled": True})

    @property
    def stderr(self):
        """The last lines the agent wrote on stderr."""
        return "".join(self._stderr)

    def _read_stderr(self):
        for raw in iter(self._proc.stderr.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace"))

    def _read(self):
        for raw in iter(self._proc.stdout.readline, b""):
            record = json.loads(raw.rstrip(b"\r\n").decode("utf-8"))
            if record.get("type") == "response" and record.get("id") in self._pending:
                with self._lock:
                    slot = self._pending.pop(record["id"])
                slot.put(record)
                continue
            self._event(record)
        # The agent exited: whatever waits for it (a response, a settle) fails now, not at its timeout.
        code = self._proc.wait()
        self._stderr_reader.join(timeout=1)  # a process it started may hold the pipe
        how = "was killed by %s" % signal.Signals(-code).name if code < 0 else "exited with code %d" % code
        self._exit = AgentError("the agent %s%s" % (how, ". Stderr:\n" + self.stderr.rstrip() if self._stderr else ""))
        with self._lock:
            pending, self._pending = self._pending, {}
        for slot in pending.values():
            slot.put(self._exit)
        self.events.put(None)

    def _gone(self):
        self._reader.join(timeout=5)
        return self._exit or AgentError("the agent exited")

    def request(self, command, timeout=60):
        """Sends one command and returns its response (a dict with `success`); raises AgentError once the agent is gone."""
        request_id = "py-%d" % next(self._ids)
        slot = queue.Queue(maxsize=1)
        with self._lock:
            if self._exit:
                raise self._exit
            self._pending[request_id] = slot
        try:
            self._send(dict(command, id=request_id))
            response = slot.get(timeout=timeout)
        except OSError:  # the pipe broke: the agent is exiting
            raise self._gone() from None
        except queue.Empty:
            raise AgentError("no response to %s within %s s" % (command["type"], timeout)) from None
        if isinstance(response, AgentError):
            raise response
        return response

    def _send(self, record):
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._write_lock:  # the reader's dialog threads write too
            self._proc.stdin.write(line.encode("utf-8"))
            self._proc.stdin.flush()

    def close(self):
        """Closing stdin ends the agent cleanly (it answers what it read, then exits 0)."""
        try:
            self._proc.stdin.close()
        except OSError:  # it has exited already
            pass
        return self._proc.wait(timeout=30)


def connect(path=None, reconnect_timeout=30):
    """A client of `atomic serve` on its unix socket (default `<agent dir>/serve/serve.sock`)."""
    agent_dir = os.environ.get("ATOMIC_CODING_AGENT_DIR") or os.path.join(os.path.expanduser("~"), ".atomic", "agent")
    return ServerConnection(path or os.path.join(os.path.expanduser(agent_dir), "serve", "serve.sock"), reconnect_timeout)


class ServerAgent(_Conversation):
    """One agent of a server: its commands go out with `agent`; its events come without the envelope."""

    def __init__(self, server, agent, role, epoch, seq, on_dialog=None):
        self._converse(on_dialog)
        self._server, self.agent, self.role, self.epoch, self.seq = server, agent, role, epoch, seq

    def request(self, command, timeout=60):
        return self._server.request(dict(command, agent=self.agent), timeout)

    def _send(self, record):
        self._server.send(dict(record, agent=self.agent))

    def _gone(self):
        return AgentError("the connection to atomic serve was lost")

    def close(self):
        """Closes the agent on the server (its run aborted, its session flushed)."""
        return self._server.request({"type": "agent_close", "agent": self.agent})


class ServerConnection:
    """One connection to `atomic serve`, many agents; reconnects and resumes after the last seq."""

    def __init__(self, path, reconnect_timeout=30):
        self.path, self._timeout = path, reconnect_timeout
        self._ids = itertools.count(1)
        self._pending, self._agents, self._early = {}, {}, {}
        self._lock, self._write_lock = threading.Lock(), threading.Lock()
        self._ready = threading.Event()  # set while connected
        self._closed = False
        self._dial()
        self.request({"type": "set_event_options", "agentSettled": True})

    def _dial(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(self.path)
        reader = sock.makefile("rb")  # binary lines: split on LF only
        hello = json.loads(reader.readline().decode("utf-8"))
        if hello.get("type") != "server_hello":
            sock.close()
            raise ConnectionError("atomic serve refused the connection: %s" % hello.get("error"))
        self.epoch, self._sock = hello["epoch"], sock
        self._ready.set()
        threading.Thread(target=self._read, args=(sock, reader), daemon=True).start()

    def request(self, command, timeout=60):
        """Sends one command and returns its response; waits out a reconnect first."""
        if not self._ready.wait(timeout) or self._closed:
            return {"type": "response", "success": False, "error": "not connected"}
        request_id = "pysrv-%d" % next(self._ids)
        slot = queue.Queue(maxsize=1)
        with self._lock:
            self._pending[request_id] = slot
        self.send(dict(command, id=request_id))
        return slot.get(timeout=timeout)

    def send(self, record):
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        with self._write_lock:
            self._sock.sendall(line)

    def _data(self, command):
        response = self.request(command)
        if not response["success"]:
            raise RuntimeError("%s (%s)" % (response["error"], response.get("code")))
        return response.get("data")

    def list_agents(self):
        return self._data({"type": "agent_list"})["agents"]

    def open_agent(self, on_dialog=None, **fields):
        """Opens an agent (cwd, resume, model, name, sandbox, ...) and attaches to it."""
        with self._lock:
            self._early["*"] = True
        data = self._data(dict(fields, type="agent_open"))
        return self._adopt(ServerAgent(self, data["agent"], "control", data["epoch"], 0, on_dialog), [])

    def attach(self, agent, after=None, role="control", on_dialog=None):
        """Attaches to an agent; `after`: first the events after that seq (0: all the server holds)."""
        command = {"type": "attach", "agent": agent, "role": role}
        if after is not None:
            command.update(after=after, epoch=self.epoch)
        with self._lock:
            self._early["*"] = True
        data = self._data(command)
        handle = ServerAgent(self, agent, role, data["epoch"], data["seq"] if after is None else after, on_dialog)
        return self._adopt(handle, data["pendingUi"])

    def _adopt(self, handle, pending_ui):
        with self._lock:
            early = self._early.pop(handle.agent, [])
            self._early.pop("*", None)
            self._agents[handle.agent] = handle
        for record in early + pending_ui:
            self._deliver(handle, record)
        return handle

    def _deliver(self, handle, record):
        seq = record.pop("seq", None)
        record.pop("agent", None)
        if seq is not None:
            if seq <= handle.seq:
                return  # seen already: each event once
            handle.seq = seq
        handle._event(record)

    def _read(self, sock, reader):
        for raw in iter(reader.readline, b""):
            record = json.loads(raw.decode("utf-8"))
            with self._lock:
                slot = self._pending.pop(record.get("id"), None) if record.get("type") == "response" else None
                handle = self._agents.get(record.get("agent"))
                if not slot and not handle and "*" in self._early and "agent" in record:
                    self._early.setdefault(record["agent"], []).append(record)
                    continue
            if slot:
                slot.put(record)
            elif handle and record.get("type") not in ("replay_complete", "agent_closed"):
                self._deliver(handle, record)
        self._lost(sock)

    def _lost(self, sock):
        """The connection dropped: what waited fails; reconnect and attach every agent after its seq."""
        self._ready.clear()
        with self._lock:
            pending, self._pending = self._pending, {}
        for slot in pending.values():
            slot.put({"type": "response", "success": False, "error": "the connection to atomic serve was lost"})
        if self._closed:
            return
        deadline = time.time() + self._timeout
        while time.time() < deadline:
            try:
                self._dial()
                self.request({"type": "set_event_options", "agentSettled": True})
                for handle in list(self._agents.values()):
                    command = {"type": "attach", "agent": handle.agent, "role": handle.role, "after": handle.seq, "epoch": handle.epoch}
                    data = self._data(command)
                    handle.epoch = data["epoch"]
                    if data["gap"]:
                        handle.seq = data["seq"]
                        handle.events.put({"type": "resync", "epoch": data["epoch"], "seq": data["seq"]})
                        for request in data["pendingUi"]:
                            handle._event(request)
                return
            except (OSError, ValueError, RuntimeError):
                time.sleep(0.2)
        self._closed = True
        for handle in self._agents.values():
            handle.events.put(None)

    def close(self):
        """Closes the connection; the agents and their runs stay on the server."""
        self._closed = True
        self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()


def ask_on_terminal(request):
    """A dialog on the terminal (stdin): the answer, or cancelled on an empty line or EOF."""
    method, title = request["method"], request.get("title", "")
    try:
        if method == "select":
            options = request.get("options", [])
            for number, option in enumerate(options, 1):
                sys.stderr.write("  %d. %s\n" % (number, option))
            choice = input("%s [1-%d]: " % (title, len(options))).strip()
            return {"value": options[int(choice) - 1]} if choice.isdigit() and 0 < int(choice) <= len(options) else None
        if method == "confirm":
            return {"confirmed": input("%s %s [y/N]: " % (title, request.get("message", ""))).strip().lower() in ("y", "yes")}
        answer = input("%s: " % title)
        return {"value": answer} if answer else None
    except EOFError:
        return None


def main(argv):
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    prompts = argv[: argv.index("--")] if "--" in argv else argv
    streamed = [False]  # text of the current assistant message was written

    def show(event):
        kind = event.get("type")
        update = event.get("assistantMessageEvent") or {}
        if kind == "message_update" and update.get("type") == "text_delta":
            sys.stdout.write(update["delta"])
            sys.stdout.flush()
            streamed[0] = True
        elif kind == "message_end" and streamed[0]:
            # One run may hold several replies (text, a tool call, more text): one line each.
            sys.stdout.write("\n")
            streamed[0] = False
        elif kind == "extension_ui_request" and event.get("method") == "notify":
            sys.stderr.write("[%s] %s\n" % (event.get("notifyType") or "info", event.get("message", "")))

    try:
        client = AtomicClient(extra_args=extra, on_dialog=ask_on_terminal if sys.stdin.isatty() else None)
        try:
            for message in prompts or ["Hello!"]:
                failure = run_error(client.prompt_and_wait(message, on_event=show))
                if failure:
                    raise AgentError(failure)
            answer = client.request({"type": "get_last_assistant_text"})
            print(json.dumps({"text": answer["data"]["text"]}))
        finally:
            client.close()
    except AgentError as error:  # a refused prompt, a failed run, an agent that could not start
        sys.stderr.write("atomic_client: %s\n" % error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
