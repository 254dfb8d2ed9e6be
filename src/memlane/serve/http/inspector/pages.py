"""The inspector's page handlers: server-rendered HTML under ``/ui`` (``/`` redirects there).

Each handler authenticates like the rest of the service (``principal``; a browser signs in
with its API key, see ``signin``), reads through ``views`` and renders a Jinja2 template
with autoescaping on, so stored text is always shown as text. Errors are pages too: a
refused or bad request answers an HTML page with the status and the message that names
the field, and an unauthenticated one is sent to the sign-in form.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, quote

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, make_logging_undefined, select_autoescape

from memlane.pack.phrase import fact_sentence
from memlane.errors import MemlaneError, ValidationError
from memlane.ingest.validate import check_id_text
from memlane.retrieve.explain import figure
from memlane.serve.again import once_more_if_lost
from memlane.serve.http.auth import Principal, caller
from memlane.serve.http.errors import ApiError, to_api_error
from memlane.serve.http.inspector import signin, views

__all__ = ["PREFIX", "mount"]

PREFIX = "/ui"

# A template reading a name its view does not give renders it empty (a page still answers)
# and logs it; the inspector's tests render with jinja2.StrictUndefined, so such a page
# fails them (the pack page showed "tokens ()" from a key its view had renamed).
_env = Environment(loader=PackageLoader("memlane.serve.http.inspector", "templates"),
                   autoescape=select_autoescape(default=True, default_for_string=True),
                   undefined=make_logging_undefined(logging.getLogger(__name__)))
_env.globals["ts"] = lambda t: t if isinstance(t, datetime) else datetime.fromtimestamp(t, UTC)


def _utc(t: datetime | float) -> datetime:
    """A time in UTC, as every page shows it (and says so): a naive one is taken as UTC."""
    t = _env.globals["ts"](t)
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


_env.globals["utc"] = _utc
_env.globals["turn_page"] = views.turn_page
_env.globals["fact_sentence"] = fact_sentence
_env.filters["figure"] = figure  # a score's decimals: never 0.000 for a tiny non-zero one


def _version() -> str:
    from memlane import __version__

    return __version__


def render(request: Request, template: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
    """A page: the template with the context every page needs (``base``, ``csrf``...)."""
    ctx.setdefault("title", template.removesuffix(".html").capitalize())
    who = getattr(request.state, "principal", None)
    html = _env.get_template(template).render(
        base=PREFIX, who=who, signed_in=signin.signed_in(request),
        csrf=signin.csrf_token(request), version=_version(), **ctx)
    response = HTMLResponse(html, status_code=status_code,
                            headers={"Cache-Control": "no-store",
                                     "Content-Security-Policy": _CSP,
                                     "X-Content-Type-Options": "nosniff",
                                     "Referrer-Policy": "same-origin"})
    signin.set_csrf_cookie(request, response)
    return response


# Scripts and styles come only from this service's files: an injected <script> or inline
# handler would not run even if some text escaped the templates.
_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'")


def _again_if_lost(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A page (every one read in a worker thread is a GET, a read) read once more on a new
    connection when the database's was lost in the middle of it, as the REST routes are
    (``serve.again``); a second loss is the 503 page with ``Retry-After`` (session 25: the
    first loss was that page already, where the same read as ``/v1/search`` answered). Its
    thread then gives its connection back while the server is full (session 26)."""

    @functools.wraps(endpoint)
    def page(*args: Any, **kwargs: Any) -> Any:
        request = kwargs["request"]
        store = _mem(request).store
        try:
            return once_more_if_lost(store, f"inspector {request.url.path}",
                                     lambda: endpoint(*args, **kwargs), write=False)
        finally:
            store.release_if_crowded()  # this thread is going idle

    return page


class _PageRoute(APIRoute):
    """Errors of a page handler (and of its dependencies) answered as pages; a page read
    in a worker thread is read again once if its connection was lost (``_again_if_lost``;
    the forms, in the event loop, do so around their own writes)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = _again_if_lost(endpoint)
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def page(request: Request) -> Response:
            try:
                return await handler(request)
            except (ApiError, MemlaneError) as e:
                err = to_api_error(e)
            except RequestValidationError as e:
                first = e.errors()[0] if e.errors() else {}
                field = ".".join(str(p) for p in first.get("loc", ())[1:]) or None
                err = ApiError(422, "invalid_request", f"{field}: {first.get('msg', 'invalid')}",
                               field)
            if err.status == 401:
                target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                return RedirectResponse(f"{PREFIX}/login?next={quote(target)}", status_code=303)
            titles = {400: "Bad request", 403: "Not allowed", 404: "Not found",
                      409: "Conflict", 422: "Bad request", 429: "Too many requests"}
            response = render(request, "error.html", err.status,
                              title=titles.get(err.status, "Error"), message=err.message,
                              field=err.field, page="")
            response.headers.update(err.headers or {})  # Retry-After of a 429 or a 503
            return response

        return page


router = APIRouter(prefix=PREFIX, route_class=_PageRoute, include_in_schema=False)
Caller = Depends(caller)


def _q(request: Request) -> dict[str, str]:
    return {k: v for k, v in request.query_params.items()}


async def _form(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", errors="replace")
    return dict(parse_qsl(body, keep_blank_values=True))


def _mem(request: Request) -> Any:
    return request.app.state.memory


def _live_head(request: Request) -> int | None:
    """The change log's head, read before a live page reads its data: the page's stream
    resumes from it (``data-live-head``), so a change landing between the page's read and
    the stream's start reaches the page. Opened with a fresh snapshot instead, the stream
    held that change in its snapshot, and the page showed it only at the next change."""
    store = _mem(request).store
    if not hasattr(store, "live_read"):
        return None
    with store.live_read() as head:
        return int(head)


@router.get("/", response_class=HTMLResponse)
def sessions(request: Request, who: Principal = Caller) -> HTMLResponse:
    q = _q(request)
    head = _live_head(request)
    data = views.sessions_page(_mem(request), who, q.get("scope"), q.get("status"),
                               page=q.get("page"), cursor=q.get("cursor") or None,
                               before=q.get("before") or None)
    return render(request, "sessions.html", page="sessions",
                  title=f"Sessions of {data['scope']}" if data["scope"] else "Sessions",
                  live_scope=data["scope"], live_head=head, **data)


@router.get("/sessions/{session_id}", response_class=HTMLResponse)
def session(request: Request, session_id: str, who: Principal = Caller) -> HTMLResponse:
    head = _live_head(request)
    data = views.session_page(_mem(request), who, check_id_text(session_id, "session_id"),
                              page=request.query_params.get("page"))
    return render(request, "session.html", page="sessions",
                  title=f"Session {data['session'].id}", live_scope=data["scope"],
                  live_head=head, **data)


@router.get("/facts", response_class=HTMLResponse)
def facts(request: Request, who: Principal = Caller) -> HTMLResponse:
    q = _q(request)
    head = _live_head(request)
    data = views.facts_page(_mem(request), who, q.get("scope"), q.get("subject"),
                            include_superseded=q.get("all") == "1", page=q.get("page"),
                            cursor=q.get("cursor") or None, before=q.get("before") or None)
    return render(request, "facts.html", page="facts",
                  title=f"Facts of {data['scope']}" if data["scope"] else "Facts",
                  live_scope=data["scope"], live_head=head, **data)


@router.get("/facts/history", response_class=HTMLResponse)
def history(request: Request, who: Principal = Caller) -> HTMLResponse:
    q = _q(request)
    if not q.get("scope"):
        raise ValidationError("scope: a fact's history is read within one scope", field="scope")
    head = _live_head(request)
    data = views.fact_history(_mem(request), who, q["scope"], q.get("subject", ""),
                              q.get("predicate", ""))
    return render(request, "history.html", page="facts",
                  title=f"History of {data['subject']} {data['predicate']}",
                  live_scope=data["scope"], live_head=head, **data)


@router.get("/facts/{fact_id}/forget", response_class=HTMLResponse)
def forget_confirm(request: Request, fact_id: str, who: Principal = Caller) -> HTMLResponse:
    fid = check_id_text(fact_id, "fact_id")
    fact = _mem(request).store.get_fact(fid)
    views.owned(who, fact.scope, f"fact {fid}", write=True)
    return render(request, "forget.html", page="facts", title="Forget a fact", fact=fact)


@router.post("/facts/{fact_id}/forget")
async def forget(request: Request, fact_id: str) -> Response:
    form = await _form(request)
    who = signin.form_principal(request, form)
    mem = _mem(request)
    fid = check_id_text(fact_id, "fact_id")

    def erase() -> Any:
        fact = mem.store.get_fact(fid)
        views.owned(who, fact.scope, f"fact {fid}", write=True)
        mem.forget_fact(fid)
        return fact

    fact = once_more_if_lost(mem.store, "inspector forget", erase, write=True)
    target = (f"{PREFIX}/facts/history?scope={quote(fact.scope)}&subject={quote(fact.subject)}"
              f"&predicate={quote(fact.predicate)}")
    return RedirectResponse(target, status_code=303)


@router.get("/search", response_class=HTMLResponse)
def search(request: Request, who: Principal = Caller) -> HTMLResponse:
    data = views.search_page(_mem(request), who, _q(request))
    metrics = getattr(request.app.state, "metrics", None)
    if data["ran"] and metrics is not None:  # the page's searches count in /metrics too
        metrics.observe_timings(data["timings"])
    title = f"Search: {data['form']['q']}" if data["form"]["q"] else "Search"
    return render(request, "search.html", 400 if data["blank"] else 200, page="search",
                  title=title, **data)


@router.get("/packs", response_class=HTMLResponse)
def packs(request: Request, who: Principal = Caller) -> HTMLResponse:
    return render(request, "packs.html", page="packs", title="Packs",
                  **views.packs_list(_mem(request), who))


@router.post("/packs")
async def build_pack(request: Request) -> Response:
    form = await _form(request)
    who = signin.form_principal(request, form)
    mem = _mem(request)
    # a pack is a read that journals: run again only if its COMMIT was not sent
    built = once_more_if_lost(mem.store, "inspector pack",
                              lambda: views.build_pack(mem, who, form), write=False)
    if isinstance(built, int):  # journaled: its page is the journal's
        return RedirectResponse(f"{PREFIX}/packs/{built}", status_code=303)
    # not journaled (a read-only key's, journal off, a scope holding nothing): the page is
    # this answer, built from the pack itself, so a read-only key writes nothing
    return render(request, "pack.html", page="packs", title="Pack (not journaled)", **built)


@router.get("/packs/{pack_id}", response_class=HTMLResponse)
def pack(request: Request, pack_id: str, who: Principal = Caller) -> HTMLResponse:
    data = views.pack_page(_mem(request), who, check_id_text(pack_id, "pack_id"))
    return render(request, "pack.html", page="packs", title=f"Pack {data['pack']['id']}", **data)


@router.get("/health", response_class=HTMLResponse)
def health(request: Request, who: Principal = Caller) -> HTMLResponse:
    return render(request, "health.html", page="health", title="Health",
                  **views.health(_mem(request), who, getattr(request.app.state, "metrics", None)))


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request) -> HTMLResponse:
    return render(request, "login.html", page="", title="Sign in", message="",
                  next=_safe_next(request.query_params.get("next", "")))


@router.post("/login")
async def login(request: Request) -> Response:
    form = await _form(request)
    target = _safe_next(form.get("next", ""))
    response = RedirectResponse(target, status_code=303)
    try:
        # the form's own token: without it a page of another site could post its own key
        # here and sign this browser in as that key (login CSRF), so what the user then
        # stored through the inspector went to the other site's memory
        signin.check_csrf(request, form)
        signin.sign_in(request, response, form.get("key", ""))
    except ApiError as e:
        page = render(request, "login.html", e.status, page="", title="Sign in",
                      message=e.message, next=target)
        page.headers.update(e.headers or {})  # Retry-After of a 429, as the other pages
        return page
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    form = await _form(request)
    signin.form_principal(request, form)
    response = RedirectResponse(f"{PREFIX}/login", status_code=303)
    signin.sign_out(response)
    return response


def _safe_next(target: str) -> str:
    """Only a path of this inspector: never another site (an open redirect)."""
    if target.startswith(PREFIX + "/") and not target.startswith("//") and "\\" not in target:
        return target
    return PREFIX + "/"


# After the static files: an address under /ui that is no page is a page saying so (it
# was the JSON API's {"error": …} in the browser).
unknown = APIRouter(prefix=PREFIX, route_class=_PageRoute, include_in_schema=False)


@unknown.get("/{rest:path}", response_class=HTMLResponse)
def no_such_page(request: Request, rest: str) -> HTMLResponse:
    raise ApiError(404, "not_found", f"there is no inspector page at {request.url.path}")


def mount(app: FastAPI) -> None:
    """Serve the inspector on ``app``: the pages, their static files, ``/`` → the pages."""
    app.include_router(router)
    static = resources.files("memlane.serve.http.inspector") / "static"
    app.mount(f"{PREFIX}/static", StaticFiles(directory=str(static)), name="inspector-static")
    app.include_router(unknown)

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/", status_code=307)
