"""How ``mazekit serve`` talks HTTP: uvicorn's h11 protocol with a deadline on reading requests.

uvicorn closes a keep-alive connection that stays idle, but once a client has sent the first
byte of a request it waits for the rest for ever: a client that opens requests and never
finishes their headers or bodies holds a connection each, as long as it likes (slowloris).
:func:`deadline_protocol` gives every request ``seconds`` from its first byte (or from the
connection's start) until the server has it whole; past that the connection is closed. Its
answer, once the request is in, is bounded by ``mazekit serve --timeout`` as before.

Needs uvicorn (the ``web`` extra); imported by ``mazekit serve`` only.
"""

from __future__ import annotations

from typing import Any


def deadline_protocol(seconds: float) -> type:
    """An ``http=`` protocol class for ``uvicorn.Config``: h11, and a request that is not
    wholly received ``seconds`` after it began (or after the connection opened) closes its
    connection.

    >>> cls = deadline_protocol(10.0)
    >>> cls.__name__, cls.request_seconds
    ('DeadlineH11Protocol', 10.0)
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    reading = (h11.IDLE, h11.SEND_BODY)  # the client's states while a request is coming in

    class DeadlineH11Protocol(H11Protocol):
        request_seconds = float(seconds)
        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in reading:
                self._arm()  # a request begun (or its body still coming): its clock runs
            else:
                self._disarm()  # received whole: the app's own time limit holds from here

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(self.request_seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.conn.their_state in reading and not self.transport.is_closing():
                self.transport.close()

    return DeadlineH11Protocol
