"""The HTTP and WebSocket routes, one module a concern; app.py assembles them (docs/server.md, "Where
things are"). Each module's `router(...)` builds its FastAPI router."""
