"""The client's address behind a trusted reverse proxy (``serve.trusted_proxies``).

Behind nginx or a load balancer every connection comes from the proxy, so every client
shared one address: one client guessing keys locked every client out of the service
(``serve.failed_auth_limit``). When the connection's peer is a trusted proxy, the client is
the right-most address of ``X-Forwarded-For`` that is not itself a trusted proxy (each
proxy appends the address it saw; the left part is whatever the client sent), and the
scheme is ``X-Forwarded-Proto``'s (``http`` or ``https``). A header that is not a list of
addresses leaves the peer's address (never a 500); an untrusted peer's headers are ignored.
A trusted proxy that sends RFC 7239's ``Forwarded`` and no ``X-Forwarded-For`` is read the
same way (its elements' ``for`` and ``proto``; session 29): its clients all had its address.

uvicorn's own ``ProxyHeadersMiddleware`` (on by default, trusting 127.0.0.1) is turned off
by ``memlane serve``: it trusted any loopback client's header, so a client on the host
could send a new address with each guess, took a header entry that is no address as the
client's, and cannot be configured from memlane's config (session 28)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["ForwardedFor", "address_of", "client_address", "forwarded_client", "is_loopback",
           "proxy_networks"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")


def _network(value: str) -> Network:
    """One entry as a network; an IPv4-mapped one (``::ffff:127.0.0.1``, as a dual-stack
    socket names an IPv4 peer) as its IPv4 network, since peers are compared as their IPv4
    address: named so, the proxy was never trusted (session 29)."""
    network = ipaddress.ip_network(value.strip())
    if isinstance(network, ipaddress.IPv6Network) and network.subnet_of(_MAPPED):
        mapped = network.network_address.ipv4_mapped
        assert mapped is not None
        return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


def proxy_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """``serve.trusted_proxies`` as networks (an address is a network of one); ValueError
    naming the value that is neither an address nor a CIDR network."""
    return tuple(_network(v) for v in values)


def address_of(entry: str) -> Address | None:
    """An ``X-Forwarded-For`` entry (or a client's host) as an address: ``1.2.3.4``,
    ``1.2.3.4:5678``, ``::1``, ``[::1]`` or ``[::1]:5678``, an IPv4-mapped IPv6 one as its
    IPv4; None for anything else (a name)."""
    entry = entry.strip()
    if entry.startswith("["):
        entry, _, port = entry[1:].partition("]")
        if port and not (port.startswith(":") and port[1:].isdigit()):
            return None
    elif entry.count(":") == 1:
        entry, _, port = entry.partition(":")
        if not port.isdigit():
            return None
    try:
        address = ipaddress.ip_address(entry)
    except ValueError:
        return None
    return address.ipv4_mapped or address if isinstance(address, ipaddress.IPv6Address) else address


def _trusted(address: Address, networks: Sequence[Network]) -> bool:
    return any(address in n for n in networks)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a client's, or an address to listen on) names only this machine:
    127.0.0.0/8, ``::1`` (an IPv4-mapped or bracketed one too) or ``localhost``, judged as
    an address. Read as text before session 29 (``host.startswith("::1")``), so ``::1a``,
    a remote address through a trusted proxy, counted as loopback."""
    address = address_of(host)
    return host == "localhost" if address is None else address.is_loopback


def _client_at(addresses: Sequence[Address], networks: Sequence[Network]) -> int:
    """Where the client is in a proxy chain: the right-most address not itself a trusted
    proxy (each proxy appends the one it saw; the left part is whatever the client sent),
    the left-most when all are."""
    return next((i for i in reversed(range(len(addresses)))
                 if not _trusted(addresses[i], networks)), 0)


def client_address(peer: str, forwarded: str | None, networks: Sequence[Network]) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy and ``forwarded`` (the
    ``X-Forwarded-For`` values, comma-joined) is a list of addresses, then the right-most of
    them that is not a trusted proxy (the left-most when all are)."""
    own = address_of(peer)
    if forwarded is None or own is None or not _trusted(own, networks):
        return peer
    chain = [address_of(e) for e in forwarded.split(",")]
    if not chain or any(a is None for a in chain):
        return peer
    addresses = [a for a in chain if a is not None]
    return str(addresses[_client_at(addresses, networks)])


_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_PAIR = re.compile(rf'\s*({_TOKEN})\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s"]*)\s*([;,]|$)')


def _elements(header: str) -> list[dict[str, str]] | None:
    """An RFC 7239 ``Forwarded`` header's elements (``for=…;proto=…, for=…``), each a dict
    of its pairs (names lowercase, quoted values unquoted); None for anything else."""
    elements: list[dict[str, str]] = [{}]
    at = 0
    while at < len(header):
        pair = _PAIR.match(header, at)
        if pair is None or pair.end() == at:
            return None
        name, value, sep = pair.group(1).lower(), pair.group(2), pair.group(3)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        if name in elements[-1]:
            return None
        elements[-1][name] = value
        if sep == ",":
            elements.append({})
        at = pair.end()
    return elements if all(elements) else None


def forwarded_client(peer: str, header: str, networks: Sequence[Network]) -> tuple[str, str | None]:
    """The client an RFC 7239 ``Forwarded`` header names (as ``client_address`` reads
    ``X-Forwarded-For``: the right-most ``for`` not a trusted proxy, the left-most when
    all are) and the ``proto`` of its element; ``(peer, None)`` when the header is not a
    list of elements whose ``for`` is an address (an obfuscated ``_hidden`` or ``unknown``
    included) or ``peer`` is not a trusted proxy. Read by ``ForwardedFor`` when a trusted
    proxy sends no ``X-Forwarded-For`` (session 29)."""
    own = address_of(peer)
    elements = _elements(header)
    if own is None or not _trusted(own, networks) or elements is None:
        return peer, None
    chain = [address_of(e.get("for", "")) for e in elements]
    addresses = [a for a in chain if a is not None]
    if len(addresses) != len(chain):
        return peer, None
    pick = _client_at(addresses, networks)
    return str(addresses[pick]), elements[pick].get("proto")


class ForwardedFor:
    """ASGI middleware: the request's client (and scheme) as ``client_address`` finds them."""

    def __init__(self, app: ASGIApp, networks: Sequence[Network]) -> None:
        self.app = app
        self.networks = tuple(networks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        own = address_of(client[0]) if client and self.networks else None
        if scope["type"] in ("http", "websocket") and own is not None and \
                _trusted(own, self.networks):
            forwarded = [v.decode("latin-1") for k, v in scope["headers"]
                         if k == b"x-forwarded-for"]
            host = client_address(client[0], ",".join(forwarded) if forwarded else None,
                                  self.networks)
            proto = [v.decode("latin-1").strip().lower() for k, v in scope["headers"]
                     if k == b"x-forwarded-proto"]
            rfc = [v.decode("latin-1") for k, v in scope["headers"] if k == b"forwarded"]
            if not forwarded and rfc:  # a proxy that sends RFC 7239's header alone
                host, said = forwarded_client(client[0], ",".join(rfc), self.networks)
                proto = [said.strip().lower()] if said and not proto else proto
            # the proxy's scheme whatever the client's address: a browser on the proxy's
            # host (its address the proxy's own) or a proxy sending no X-Forwarded-For
            # kept the connection's http, and the sign-in cookie lost Secure (session 29)
            scheme = proto[0] if scope["type"] == "http" and len(proto) == 1 and \
                proto[0] in ("http", "https") else scope.get("scheme")
            if host != client[0] or scheme != scope.get("scheme"):
                scope = {**scope, "client": (host, 0) if host != client[0] else client,
                         "scheme": scheme}
        await self.app(scope, receive, send)
