"""A real local push service for the Web Push tests (RFC 8030's one request: `POST <endpoint>` with an encrypted
body) and a browser's side of a subscription (its keys, and the decryption of what arrives), so a test can check
what the server sent exactly as a browser's push service and the browser would."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers 201 to every push, 410 under /gone/ (a subscription the browser dropped), a redirect to
    /push/redirected/... under /redirect/; keeps what it got."""

    port: int = 0
    got: list[Pushed] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def to(self, path: str) -> list[Pushed]:
        return [p for p in self.got if p.path == path]


@contextmanager
def push_service() -> Iterator[PushService]:
    svc = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            svc.got.append(Pushed(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            if self.path.startswith("/redirect/"):  # a push service must not send the server elsewhere
                self.send_response(307)
                self.send_header("Location", "/push/redirected" + self.path.removeprefix("/redirect"))
            else:
                self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    svc.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield svc
    finally:
        httpd.shutdown()
        httpd.server_close()


class Browser:
    """A browser's side of one subscription: the P-256 key pair and the auth secret it gives the server."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None, "lang": lang,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def decrypt(self, pushed: Pushed) -> dict[str, Any]:
        """The payload, decrypted as the browser does (RFC 8291, aes128gcm: the sender's key is in the header)."""
        assert pushed.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(pushed.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(json.loads(plain))


def check_vapid(pushed: Pushed, server_key: str, audience: str) -> dict[str, Any]:
    """The VAPID header (RFC 8292) names the server's key and carries a JWT signed by it (ES256) for this push
    service; returns the JWT's claims."""
    scheme, _, params = pushed.headers["authorization"].partition(" ")
    assert scheme == "vapid", pushed.headers["authorization"]
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == server_key
    head, claims, sig = fields["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(sig)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    out = dict(json.loads(unb64url(claims)))
    assert out["aud"] == audience and out["exp"] > time.time() and out["sub"].startswith("mailto:")
    return out
