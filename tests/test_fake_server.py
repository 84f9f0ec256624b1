"""The test server (tests/fake_server.py) stays quiet when a client hangs up."""

import socket
import struct
import sys
import threading
import time

from fake_server import FakeServer


def test_a_client_that_resets_the_connection_prints_no_traceback():
    """A client that reads its reply and then resets the kept-alive connection (as
    a client that timed out does) is no server error: the handler ends quietly,
    instead of socketserver printing a ConnectionResetError traceback to stderr in
    the middle of pytest, after the test that caused it."""
    server = FakeServer().start()
    errors = []  # what socketserver would print: (client, the exception)
    server.httpd.handle_error = lambda request, address: errors.append(
        sys.exc_info()[1])
    try:
        host, port = server.httpd.server_address
        body = b'{"messages": []}'
        client = socket.create_connection((host, port), timeout=5)
        client.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        assert client.recv(65536).startswith(b"HTTP/1.1 200")
        handler = [t for t in threading.enumerate()
                   if "process_request_thread" in t.name]  # the connection's
        # SO_LINGER 0: close() sends a TCP reset, not a polite FIN
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        deadline = time.monotonic() + 5
        while any(t.is_alive() for t in handler):  # the handler has seen the reset
            assert time.monotonic() < deadline, "the handler thread never ended"
            time.sleep(0.01)
    finally:
        server.stop()
    assert handler and errors == []
