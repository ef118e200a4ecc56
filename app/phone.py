"""How a phone reaches this server: the machine's network address, whether a browser
runs on the serving machine (its Host header), and a QR code of an address. The
assistant's first page shows the phone panel; the online match shows its links' QR
codes and offers the machine's owner-less games only to a browser on it."""
from __future__ import annotations

import socket
from dataclasses import dataclass
from functools import lru_cache

import streamlit as st

from .i18n import t
from .templating import render


#: How the browser names this machine when it runs on it: only then the page shows
#: how a phone reaches it (a phone that opened the page knows already).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


@dataclass(frozen=True)
class Connection:
    """How a phone beside the table reaches this server."""

    url: str | None  #: the page at this machine's network address (None: no network address)
    port: int
    address: str  #: the server's ``server.address`` ("" = every network interface)

    @property
    def local_only(self) -> bool:
        """The server answers on this machine only (bound to a loopback address)."""
        return self.address.startswith("127.") or self.address in ("localhost", "::1")


def split_host(host: str) -> tuple[str, int | None]:
    """("localhost", 8501) from a Host header "localhost:8501" (IPv6 in brackets)."""
    host = host.strip()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port = host.partition(":") if host.count(":") == 1 else (host, "", "")
    return name.lower(), int(port) if port.isdigit() else None


def is_local(host: str) -> bool:
    """Whether a browser that sent this Host header runs on the machine serving it."""
    name, _ = split_host(host)
    return name in LOCAL_HOSTS or name.startswith("127.")


def on_this_machine(host: str, ip: str | None) -> bool:
    """Whether the browser runs on the machine serving it: its Host header names this
    machine and its connection comes from it (``ip``: ``st.context.ip_address``, None
    for a loopback connection). The Host header alone is the browser's word: a browser
    elsewhere may send "localhost" too, but its connection comes from its own address."""
    return is_local(host) and ip is None


def network_address() -> str | None:
    """This machine's address on its network (the one a phone on the same Wi-Fi
    reaches), or None. Connecting a UDP socket sends nothing; it only picks the
    interface that leads out."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never contacted
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def connection(host: str, address: str, port: int, ip: str | None) -> Connection:
    """The phone's way to this server seen from a browser on the serving machine
    (``host``: its Host header; ``address``/``port``: the server's settings)."""
    _, shown_port = split_host(host)
    port = shown_port or port
    return Connection(f"http://{ip}:{port}" if ip else None, port, address or "")


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI (segno, pure Python), for an <img>.
    Kept per address: a seat's page draws its invitation's code at every run (in the
    expander, open or not), and making it takes about 8 ms."""
    import segno

    return segno.make(url, error="m").svg_data_uri(scale=5, dark="#111", light="#fff")


def phone_panel(expanded: bool) -> None:
    """When the page is opened on the machine that serves it: a QR code of its
    network address for the phone, and what to do when the phone cannot reach it."""
    host = st.context.headers.get("Host") or ""
    if not host or not is_local(host):
        return
    conn = connection(host, str(st.get_option("server.address") or ""), int(st.get_option("server.port")),
                      network_address())
    with st.expander(t("phone_title"), expanded=expanded):
        if conn.url is None:
            st.warning(t("phone_no_network"))
        else:
            if conn.local_only:
                st.warning(t("phone_local_only", address=conn.address))
            st.caption(t("phone_scan"))
            st.html(render("links/qr.html", qr=qr_svg(conn.url), size=185, url=conn.url))
        st.caption(t("phone_help", port=conn.port))
