"""A Unix socket that serves one connection on a thread, for client tests that need no penkitd:
``with OneConnectionServer(serve) as server:`` binds and listens in a temporary directory, runs
``serve(conn)`` for the first connection, and on leaving waits for it and cleans up."""
import os
import socket
import tempfile
import threading


class OneConnectionServer:
    def __init__(self, serve):
        self._serve = serve

    def __enter__(self):
        self._directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self._directory.name, "penkit.sock")
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.bind(self.path)
        self._socket.listen(1)

        def accept_and_serve():
            conn, _ = self._socket.accept()
            try:
                self._serve(conn)
            finally:
                conn.close()

        self._thread = threading.Thread(target=accept_and_serve)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._thread.join(timeout=10)
        self._socket.close()
        self._directory.cleanup()
        return False
